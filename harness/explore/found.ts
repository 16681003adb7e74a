// What a driver found: how many schedules it ran, how many failed and how, and the shortest
// failing one (fewest steps), which is the one worth reading.
import type { FailureKind } from "../check/failures.js";
import type { LogDisagreement } from "./properties.js";
import type { ScheduleRun } from "./schedule-run.js";
import type { WentAround } from "./touched.js";

export interface Found {
  schedules: number;
  failing: number;
  byKind: Partial<Record<FailureKind, number>>;
  shortest: ScheduleRun | undefined;
  /** Schedules whose log lines and ledger disagree (a finding, not a failure), and the first. */
  disagreed: number;
  disagreement: Disagreement | undefined;
  /** Schedules in which a copy's DynamoDB request went around the gates, and the first's. */
  wentAround: number;
  around: WentAround[] | undefined;
  /** The schedules the disagreement and the requests around the gates were kept from. */
  disagreementIn?: ScheduleRun;
  aroundIn?: ScheduleRun;
  ms: number;
}

/** A schedule whose charge_applied lines name other chargeIds than its ledger items. */
export interface Disagreement extends LogDisagreement {
  orderId: string;
}

export const nothingFound = (): Found => ({
  schedules: 0,
  failing: 0,
  byKind: {},
  shortest: undefined,
  disagreed: 0,
  disagreement: undefined,
  wentAround: 0,
  around: undefined,
  ms: 0,
});

/**
 * Counts one schedule in. What it keeps of several (the shortest failure, the first disagreement,
 * the first request around the gates) is chosen by `shorter` and `earlier`, never by which
 * schedule happened to end first: schedules run side by side, and the emulator's speed decides
 * that order.
 */
export function tally(found: Found, run: ScheduleRun): void {
  found.schedules += 1;
  const { kinds, disagreement } = run.verdict;
  if (run.around.length > 0) {
    found.wentAround += 1;
    if (!found.aroundIn || earlier(run, found.aroundIn)) {
      found.aroundIn = run;
      found.around = run.around;
    }
  }
  if (disagreement) {
    found.disagreed += 1;
    if (!found.disagreementIn || earlier(run, found.disagreementIn)) {
      found.disagreementIn = run;
      found.disagreement = { orderId: run.orderId, ...disagreement };
    }
  }
  if (kinds.length === 0) return;
  found.failing += 1;
  for (const kind of new Set(kinds)) found.byKind[kind] = (found.byKind[kind] ?? 0) + 1;
  if (!found.shortest || shorter(run, found.shortest)) found.shortest = run;
}

/**
 * The counterexample worth reading: the fewest faults it needs (none, for a race), then the
 * fewest steps, then the fewest choices; of equals, the earlier (a total order: the same
 * schedule wins however the runs interleave).
 */
export function shorter(a: ScheduleRun, b: ScheduleRun): boolean {
  const key = (r: ScheduleRun) => [r.faults, r.steps.length, r.trace.length];
  const [x, y] = [key(a), key(b)];
  const i = x.findIndex((v, k) => v !== y[k]);
  return i === -1 ? earlier(a, b) : (x[i] as number) < (y[i] as number);
}

/** The schedule met first in the walk's order: its picks, compared one by one. */
export function earlier(a: ScheduleRun, b: ScheduleRun): boolean {
  const [x, y] = [a.trace.map((c) => c.pick), b.trace.map((c) => c.pick)];
  const i = x.findIndex((v, k) => v !== y[k]);
  if (i === -1) return x.length < y.length;
  return (x[i] as number) < (y[i] as number);
}

/**
 * Runs `work` on what `next` hands out, `lanes` at a time, until it hands out nothing and no work
 * is left running (work may give `next` more to hand out). The first error stops every lane.
 */
export async function pool<T>(
  lanes: number,
  next: () => T | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let active = 0;
  let failed = false;
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const lane = async (): Promise<void> => {
    for (;;) {
      const item = failed ? undefined : next();
      if (item === undefined) {
        if (active === 0 || failed) return wakeAll();
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      active += 1;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        active -= 1;
        wakeAll();
      }
    }
  };
  // Every lane ends before the error comes out: none is left running against a closed session.
  const ended = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const failure = ended.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
}
