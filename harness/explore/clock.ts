// Time in the explorer. Each schedule has a clock of its own that moves only when the explorer
// says so: a clock jump, or SQS bringing a message back after its visibility timeout. The worker
// reads it through Date.now(), patched while a session runs: inside a copy (found through
// AsyncLocalStorage, gates.ts) it is that schedule's clock, everywhere else the real one. So a
// run is the same every time it is replayed, and schedules can run side by side.
//
// The worker's sleeps (the busy guards' second looks, busy.ts; WORK_MS 0) take no time: whatever
// may happen meanwhile is the explorer's choice at the copy's next gate, not the machine's.
// Only Date.now() is patched: the worker takes every decision from it; `new Date()` gives only
// the ISO strings of its records (claimedAt, chargedAt), which stay real time.
import { copyNow } from "./gates.js";

export class FakeClock {
  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  /** A redelivery: the message is visible again at `ms`, unless the clock is already past it. */
  advanceTo(ms: number): void {
    this.ms = Math.max(this.ms, ms);
  }
}

/** A sleep of the worker's own (worker/time.ts), as its stack shows it. */
const WORKER_SLEEP = /[\\/]worker[\\/]time\.[jt]s/;

/**
 * Puts the copies' clock into Date.now and makes the worker's sleeps instant, for as long as a
 * session runs; the function it returns puts both back. Nested installs are refused.
 */
export function patchTime(): () => void {
  if (patched) throw new Error("the explorer's clock is already installed");
  const realNow = Date.now;
  const realSetTimeout = globalThis.setTimeout;
  Date.now = () => copyNow() ?? realNow();
  const setTimeoutInCopies = (
    handler: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    // Only a copy's own sleep: the SDK's timers (socket and request timeouts) stay real.
    if (copyNow() !== undefined && calledFromWorkerSleep()) {
      return setImmediate(handler, ...args) as unknown as NodeJS.Timeout;
    }
    return realSetTimeout(handler, ms, ...args);
  };
  globalThis.setTimeout = Object.assign(setTimeoutInCopies, realSetTimeout) as typeof setTimeout;
  patched = true;
  return () => {
    Date.now = realNow;
    globalThis.setTimeout = realSetTimeout;
    patched = false;
  };
}

let patched = false;

/** Whether worker/time.ts's sleep is the caller: the raw call sites, without formatting a stack. */
function calledFromWorkerSleep(): boolean {
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.prepareStackTrace = (_, sites) => sites;
  Error.stackTraceLimit = 4;
  try {
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, calledFromWorkerSleep);
    return (holder.stack ?? []).some((site) => WORKER_SLEEP.test(site.getFileName() ?? ""));
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
}
