// Random schedules, with fast-check: a schedule is a list of numbers, one per choice point, each
// picking an option (weighted, so most steps let a copy go on and faults stay rarer); past the
// end of the list every choice is the first option, a copy going on. fast-check draws the lists
// from a seed (`lanes` side by side, on seeds seed, seed+1, …); the first one that fails is then
// shrunk by fast-check to the smallest list that still fails, so the schedule printed is short.
import fc from "fast-check";
import type { Chooser, Option } from "./choices.js";
import { type Found, nothingFound, shorter, tally } from "./found.js";
import type { ScheduleRun } from "./schedule-run.js";

export interface RandomOptions {
  runs: number;
  seed: number;
  lanes: number;
  /** Copies in each schedule, for the report. */
  copies: number;
  /** Most schedules spent shrinking a failure (fast-check tries a smaller choice list each). */
  shrinkRuns?: number;
  /** Stop drawing schedules once one failed (a guard expected to fail); else draw them all. */
  stopAtFirstFailure?: boolean;
  onProgress?: (found: Found) => void;
}

export interface Sampled extends Found {
  seed: number;
  copies: number;
  /** Schedules drawn at random, and schedules run while shrinking a failure. */
  runs: number;
  shrinks: number;
}

/** How likely each kind of step is, against the others on offer. */
const WEIGHT: Record<Option["kind"], number> = {
  go: 8,
  crash: 1,
  fail: 2,
  lose: 2,
  jump: 2,
  redeliver: 3,
};

/** Follows the list: its i-th number picks the i-th choice, weighted; after it, the first option. */
export function chooserFrom(choices: readonly number[]): Chooser {
  let i = 0;
  return (options) => {
    const value = choices[i++] ?? 0;
    const total = options.reduce((sum, o) => sum + WEIGHT[o.kind], 0);
    let left = value % total;
    for (const [index, option] of options.entries()) {
      left -= WEIGHT[option.kind];
      if (left < 0) return index;
    }
    return 0;
  };
}

/** Choice lists up to this long; a schedule of three copies makes a few dozen choices. */
const MAX_CHOICES = 120;

export async function randomly(
  run: (choose: Chooser) => Promise<ScheduleRun>,
  options: RandomOptions,
): Promise<Sampled> {
  const started = performance.now();
  const found: Sampled = {
    ...nothingFound(),
    seed: options.seed,
    copies: options.copies,
    runs: 0,
    shrinks: 0,
  };
  const choiceLists = fc.array(fc.nat({ max: 0xffff }), { maxLength: MAX_CHOICES, size: "max" });
  // An error of the explorer or the emulator is not a counterexample: stop, and say it.
  let broken: unknown;
  const guarded = async <T>(work: () => Promise<T>, otherwise: T): Promise<T> => {
    if (broken !== undefined) return otherwise;
    try {
      return await work();
    } catch (err) {
      broken ??= err;
      return otherwise;
    }
  };

  // 1. Search: every lane draws its schedules from its own seed; failures are kept, not shrunk.
  // A lane that stops at a failure stops at its own: when another lane's failure came is the
  // emulator's timing, so it decides neither how many schedules run nor which failure is shrunk
  // (the one drawn earliest, lane by lane).
  let firstFailure: { draw: number; lane: number; choices: number[] } | undefined;
  const lanes = Math.max(1, Math.min(options.lanes, options.runs));
  const perLane = Math.ceil(options.runs / lanes);
  await Promise.all(
    Array.from({ length: lanes }, (_, lane) => {
      let draw = 0;
      let failed = false;
      return fc.check(
        fc.asyncProperty(choiceLists, (choices) =>
          guarded(async () => {
            if (failed && options.stopAtFirstFailure) return true;
            const drawn = draw++;
            const schedule = await run(chooserFrom(choices));
            tally(found, schedule);
            found.runs += 1;
            options.onProgress?.(found);
            if (schedule.verdict.kinds.length > 0 && !failed) {
              failed = true;
              const before = firstFailure;
              if (!before || drawn < before.draw || (drawn === before.draw && lane < before.lane)) {
                firstFailure = { draw: drawn, lane, choices };
              }
            }
            return true;
          }, true),
        ),
        { seed: options.seed + lane, numRuns: perLane },
      );
    }),
  );
  if (broken !== undefined) throw broken;

  // 2. Shrink the first failure: fast-check tries ever smaller choice lists that still fail.
  if (firstFailure) {
    let tries = 0;
    const shrinkLimit = options.shrinkRuns ?? 300;
    await fc.check(
      fc.asyncProperty(choiceLists, (choices) =>
        guarded(async () => {
          if (tries++ > shrinkLimit) return true;
          const schedule = await run(chooserFrom(choices));
          const failed = schedule.verdict.kinds.length > 0;
          if (tries === 1 && !failed) {
            throw new Error(
              "a failing schedule passed when replayed: the explorer is not deterministic",
            );
          }
          if (tries > 1) found.shrinks += 1;
          if (failed && (!found.shortest || shorter(schedule, found.shortest))) {
            found.shortest = schedule;
          }
          return !failed;
        }, true),
      ),
      { seed: options.seed, numRuns: 1, examples: [[firstFailure.choices]] },
    );
    if (broken !== undefined) throw broken;
  }
  found.ms = performance.now() - started;
  return found;
}
