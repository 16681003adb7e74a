// One guard setting explored: every schedule of two copies (the exhaustive walk), then random
// schedules of two or three (fast-check), and whether the result is what the lab teaches.
import type { FailpointName } from "../../contract/failpoints.js";
import type { FailureKind } from "../check/failures.js";
import { type Budget, FAIL_AT } from "./budget.js";
import type { Chooser } from "./choices.js";
import { exhaustive, type Walked } from "./exhaustive.js";
import { type Disagreement, type Found, shorter } from "./found.js";
import type { Explored } from "./guards.js";
import { randomly, type Sampled } from "./random.js";
import { runSchedule } from "./schedule.js";
import type { ScheduleRun } from "./schedule-run.js";
import type { Session } from "./session.js";
import type { WentAround } from "./touched.js";

export interface ExploreOptions {
  /** Copies in the random schedules; the exhaustive walk always runs two. */
  copies: number;
  /** Random schedules per guard (0: none). */
  runs: number;
  seed: number;
  /** Faults per schedule, each kind at most this often. */
  budget: Budget;
  /**
   * The walk's cap on faults of any kind together: every schedule of two copies with at most this
   * many is a few hundred for one, thousands for two (undefined: the budget alone).
   */
  walkFaults?: number;
  /** The most schedules the exhaustive walk runs (0: no walk); past it, it says it stopped. */
  walkLimit: number;
  /** Schedules run side by side. */
  lanes: number;
  failAt?: readonly FailpointName[];
  /** Findings beyond the lab's lessons (Explored.beyond) count against the guard too. */
  strict?: boolean;
  /** Hears every schedule run, with what it did (a test checks each failure, not only the shortest). */
  onSchedule?: (run: ScheduleRun) => void;
}

/**
 * A failing schedule and what it ran under: its picks replay it only with the same fault budget
 * and failpoints, since they decide which options each choice offers.
 */
export type Counterexample = ScheduleRun & {
  budget: Budget;
  failAt: readonly FailpointName[];
};

export interface GuardReport {
  explored: Explored;
  walk?: Walked & { budget: Budget };
  sample?: Sampled;
  /** The shortest failing schedule either driver found, with the faults it was found under. */
  counterexample?: Counterexample;
  /** Every failure kind seen, over both drivers. */
  kinds: FailureKind[];
  /** Those of them the lab's lessons do not teach, but the explorer knows of (Explored.beyond). */
  findings: FailureKind[];
  schedules: number;
  failing: number;
  /**
   * Schedules whose charge_applied lines and ledger items disagree, and the first: a finding
   * about what the guard logs (it recorded its charge under another key), not a failure.
   */
  disagreed: number;
  disagreement?: Disagreement;
  /**
   * Schedules in which the guard's DynamoDB requests went around the explorer's gates (through a
   * client it could not see), and the first's: those schedules were not the explorer's to choose.
   */
  wentAround: number;
  around?: WentAround[];
  /** The guard did what the lab teaches: held, or failed only in the ways expected. */
  asExpected: boolean;
  ms: number;
}

export async function exploreGuard(
  session: Session,
  explored: Explored,
  options: ExploreOptions,
  progress: (found: Found, driver: "walk" | "sample") => void = () => {},
): Promise<GuardReport> {
  const started = performance.now();
  const spec = (copies: number, budget: Budget) => ({
    explored,
    copies,
    budget,
    ...(options.failAt ? { failAt: options.failAt } : {}),
  });
  const runWith = (copies: number, budget: Budget) => async (choose: Chooser) => {
    const run = await runSchedule(session, spec(copies, budget), choose);
    options.onSchedule?.(run);
    return run;
  };
  const walkBudget: Budget =
    options.walkFaults === undefined
      ? options.budget
      : { ...options.budget, total: options.walkFaults };
  const walk =
    options.walkLimit > 0
      ? await exhaustive(runWith(2, walkBudget), {
          limit: options.walkLimit,
          lanes: options.lanes,
          onProgress: (f) => progress(f, "walk"),
        })
      : undefined;
  const sample =
    options.runs > 0
      ? await randomly(runWith(options.copies, options.budget), {
          runs: options.runs,
          seed: options.seed,
          lanes: options.lanes,
          copies: options.copies,
          // A guard expected to fail needs one counterexample; one expected to hold, every run.
          stopAtFirstFailure: explored.expect !== "holds",
          onProgress: (f) => progress(f, "sample"),
        })
      : undefined;
  const found = [walk, sample].filter((f): f is Walked | Sampled => f !== undefined);
  const kinds = [...new Set(found.flatMap((f) => Object.keys(f.byKind) as FailureKind[]))];
  const failAt = options.failAt ?? FAIL_AT;
  const counterexample = [
    walk?.shortest && { ...walk.shortest, budget: walkBudget, failAt },
    sample?.shortest && { ...sample.shortest, budget: options.budget, failAt },
  ]
    .filter((s): s is Counterexample => Boolean(s))
    .reduce<Counterexample | undefined>(
      (best, s) => (!best || shorter(s, best) ? s : best),
      undefined,
    );
  const failing = found.reduce((n, f) => n + f.failing, 0);
  const disagreement = found.find((f) => f.disagreement)?.disagreement;
  const around = found.find((f) => f.around)?.around;
  const { expect } = explored;
  const taught = expect === "holds" ? [] : expect;
  const known = options.strict ? [] : (explored.beyond?.kinds ?? []);
  const findings = kinds.filter((k) => !taught.includes(k) && known.includes(k));
  const explained = kinds.every((k) => taught.includes(k) || known.includes(k));
  // A broken guard must fail as the lab teaches; a fixed one may fail only as a known finding.
  const asExpected = explained && (expect === "holds" || kinds.some((k) => taught.includes(k)));
  return {
    explored,
    ...(walk ? { walk: { ...walk, budget: walkBudget } } : {}),
    ...(sample ? { sample } : {}),
    ...(counterexample ? { counterexample } : {}),
    kinds,
    findings,
    schedules: found.reduce((n, f) => n + f.schedules, 0),
    failing,
    disagreed: found.reduce((n, f) => n + f.disagreed, 0),
    ...(disagreement ? { disagreement } : {}),
    wentAround: found.reduce((n, f) => n + f.wentAround, 0),
    ...(around ? { around } : {}),
    asExpected,
    ms: performance.now() - started,
  };
}
