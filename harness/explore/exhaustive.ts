// Every schedule, one after another: a depth-first walk of the tree of choices, without keeping
// the tree. Each run follows a prefix of choices, then takes the first option wherever it has a
// choice, and says how many options each choice point had; every option not taken below the
// prefix becomes a prefix of its own. Each leaf (one complete schedule) is run exactly once.
// Runs happen against the real emulator, `lanes` at a time, each on its own orderId.

import type { Chooser } from "./choices.js";
import { type Found, nothingFound, pool, tally } from "./found.js";
import type { ScheduleRun } from "./schedule-run.js";

export interface ExhaustiveOptions {
  /** Stop after this many schedules: the result then says the walk is incomplete. */
  limit: number;
  lanes: number;
  onProgress?: (found: Found) => void;
}

export interface Walked extends Found {
  /** Every schedule was run (the limit was not reached). */
  complete: boolean;
}

/** A prefix to follow, with the option counts the run that made it met on the way. */
interface Prefix {
  picks: number[];
  counts: number[];
}

export async function exhaustive(
  run: (choose: Chooser) => Promise<ScheduleRun>,
  options: ExhaustiveOptions,
): Promise<Walked> {
  const started = performance.now();
  const found: Walked = { ...nothingFound(), complete: true };
  const todo: Prefix[] = [{ picks: [], counts: [] }];
  let handedOut = 0;
  const next = () => {
    if (todo.length === 0) return undefined;
    if (handedOut >= options.limit) {
      found.complete = false;
      return undefined;
    }
    handedOut += 1;
    return todo.pop();
  };
  await pool(options.lanes, next, async (prefix) => {
    let depth = 0;
    const choose: Chooser = (offered) => {
      const expected = prefix.counts[depth];
      if (expected !== undefined && expected !== offered.length) {
        throw new Error(
          `not the same schedule twice: choice ${depth + 1} had ${expected} options, now ${offered.length}`,
        );
      }
      const pick = prefix.picks[depth] ?? 0;
      depth += 1;
      return pick;
    };
    const schedule = await run(choose);
    tally(found, schedule);
    const { trace } = schedule;
    const picks = trace.map((c) => c.pick);
    const counts = trace.map((c) => c.count);
    // The deepest last, lower options above higher ones: the walk goes depth-first, leftmost
    // first, and the list of prefixes stays as short as the tree is deep.
    for (let d = prefix.picks.length; d < trace.length; d++) {
      const count = counts[d] as number;
      for (let o = count - 1; o >= 1; o--) {
        todo.push({ picks: [...picks.slice(0, d), o], counts: counts.slice(0, d + 1) });
      }
    }
    options.onProgress?.(found);
  });
  found.ms = performance.now() - started;
  return found;
}
