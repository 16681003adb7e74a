// How long things take in the lab: the queue's and the function's clocks, per backend.
import { isLocalStack } from "../backends/emulators.js";

/** Timings short enough for a scenario to finish in seconds (real AWS would use minutes). */
export interface Timings {
  functionTimeoutSeconds: number;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

/**
 * A failed or crashed copy comes back after the visibility timeout, so it sets the pace of
 * every retry scenario. It is longer than the function timeout (AWS requires that, and
 * Powertools' INPROGRESS record expires with the function timeout, before the retry arrives).
 * AWS advises a visibility timeout of six times the function timeout; these are seconds.
 */
export const TEST_TIMINGS: Timings = {
  // The longest a lesson holds a copy (failpoints) is about a second, and a phase that needs
  // more says so (functionTimeoutSeconds). 3 s, not 2: in clean-clone CI runs with the whole
  // suite on 2 cores, a first copy's claim alone took 1.5 s and 2 s timed it out mid-charge.
  functionTimeoutSeconds: 3,
  // A second past the function timeout: a crashed copy's retry comes after its INPROGRESS
  // record (Powertools) and its lease (both defences) have run out with the invocation.
  visibilityTimeoutSeconds: 4,
  maxReceiveCount: 3,
};

/**
 * LocalStack counts a new execution environment's cold start (a container, Node, the bundle, the
 * first SDK calls) inside the function timeout, where AWS gives init a budget of its own. After a
 * crash or a timeout every retry starts cold, and on a loaded 2-core machine that alone took
 * more than 3 s: 6 s. Since the cold start runs inside that clock, an invocation's INPROGRESS
 * record and lease end at most 6 s after SQS handed the message out; the retry comes 2 s later.
 */
export const LOCALSTACK_TEST_TIMINGS: Timings = {
  functionTimeoutSeconds: 6,
  visibilityTimeoutSeconds: 8,
  maxReceiveCount: 3,
};

/**
 * AWS's rule for an SQS event source mapping: the queue's visibility timeout must be at least the
 * function's timeout, or CreateEventSourceMapping and UpdateEventSourceMapping are refused
 * ("Queue visibility timeout: … is less than Function timeout: …"). Emulators may not check it;
 * the lab does, so a configuration that would fail on AWS fails here too.
 */
export function timingsProblem(timings: Timings): string | undefined {
  const { visibilityTimeoutSeconds: visibility, functionTimeoutSeconds: fn } = timings;
  if (visibility >= fn) return undefined;
  return (
    `the queue's visibility timeout (${visibility} s) is shorter than the function timeout (${fn} s): ` +
    `AWS refuses this event source mapping ("Queue visibility timeout: ${visibility} seconds is less than Function timeout: ${fn} seconds")`
  );
}

/** The timings the tests and `npm run scenario` deploy with on this backend. */
export function testTimings(backend: { name: string; version: string }): Timings {
  return isLocalStack(backend) ? LOCALSTACK_TEST_TIMINGS : TEST_TIMINGS;
}

/** For scenario stories: how long a failed copy waits before SQS delivers it again. */
export const RETRY_AFTER = `${TEST_TIMINGS.visibilityTimeoutSeconds} s here, ${LOCALSTACK_TEST_TIMINGS.visibilityTimeoutSeconds} s on LocalStack`;

/**
 * For `lab up`: long enough for the article's WORK_MS=4000 and for a person to watch; a
 * failed copy comes back after 30 s.
 */
export const WORKSHOP_TIMINGS: Timings = {
  functionTimeoutSeconds: 15,
  visibilityTimeoutSeconds: 30,
  maxReceiveCount: 3,
};

/** How the SDK's waiters poll the emulator while a resource becomes ready. */
export const WAIT = { maxWaitTime: 60, minDelay: 0.2, maxDelay: 1 };
