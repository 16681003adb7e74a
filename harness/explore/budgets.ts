// How much the explorer runs, by name: every schedule of two copies with at most `walkFaults`
// faults (up to `walkLimit` schedules), then `runs` random schedules. One table for the explorer's
// command and for a grade, each offering the sizes that suit it (the faults a schedule may use
// are budget.ts's). The command line reads both without loading the explorer.

export const EXPLORE_BUDGETS = {
  /** A quick look (the tests). */
  small: { runs: 30, walkFaults: 1, walkLimit: 2_000 },
  /**
   * A glance, for the grader's tests that do not read the explorer's answer, read a kind every
   * schedule shows, or grade a copy of a guard the explorer's own tests walk whole: the explorer
   * meets the guard in a few schedules and ends without an error, all those tests ask of it.
   * Not offered on the command line.
   */
  glance: { runs: 5, walkFaults: 1, walkLimit: 25 },
  /** A grade's share: a grade in well under two minutes on MiniStack. */
  default: { runs: 1_000, walkFaults: 1, walkLimit: 2_000 },
  /** The explorer's own run: about a minute on MiniStack. */
  full: { runs: 2_000, walkFaults: 1, walkLimit: 50_000 },
  /** Two faults in the walk (thousands of schedules per lease setting): several minutes. */
  deep: { runs: 5_000, walkFaults: 2, walkLimit: 200_000 },
} as const;
export type ExploreBudgetName = keyof typeof EXPLORE_BUDGETS;

/** The sizes `lab grade --budget` offers, and `lab explore --budget`. */
export const GRADE_BUDGET_NAMES = ["small", "default"] as const satisfies ExploreBudgetName[];
export const EXPLORE_BUDGET_NAMES = [
  "full",
  "deep",
  "small",
] as const satisfies ExploreBudgetName[];
