// How long things take in the lab: the queue's and the function's clocks, per backend.
import { type Emulator, profileOf } from "../backends/emulators.js";

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
  // A copy runs within the function timeout; from SQS's receive to its acknowledgement it has
  // the visibility timeout, which on MiniStack also holds a new environment's start (outside the
  // function timeout, as init is on AWS): every retry after a crash starts one. In the MiniStack
  // suite on 2 cores (load average 7) a run took up to 1.9-2.4 s and a crashed copy's retry
  // started up to 3.2 s after its visibility ran out. At 3/4 s, CI on a slower day saw both
  // limits crossed: a retry killed at 3 s after its charge, and one acknowledged after 4 s, so
  // SQS delivered the message a third time. 4/6 s cost the suite no measurable time (144-159 s
  // against 155-160 s on the same machine that day). 2/3 s once timed a first claim out.
  functionTimeoutSeconds: 4,
  // Two seconds past the function timeout: a crashed copy's retry comes after its INPROGRESS
  // record (Powertools) and its lease (both defences) have run out with the invocation, and a
  // retry's new environment can start and run without its message being delivered again.
  visibilityTimeoutSeconds: 6,
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

/** The timings the tests and `npx lab scenario` deploy with on this backend. */
export function testTimings(backend: { emulator: Emulator }): Timings {
  return profileOf(backend).clocks === "localstack" ? LOCALSTACK_TEST_TIMINGS : TEST_TIMINGS;
}

/** The two clocks one phase of a scenario runs with. */
export interface PhaseClocks {
  functionTimeoutSeconds: number;
  visibilityTimeoutSeconds: number;
}

/**
 * How many times its own function timeout a phase gets on this backend. A phase asks for what a
 * held copy needs when the machine is not crowded (HOLDS_A_COPY: the other copy's whole way
 * through the guard while the held one waits inside its invocation). MiniStack serves every
 * request on one thread: when a run starts, every test file, the explorer's schedules and the
 * grader's deploys reach it at once, and a fresh clone's run saw one copy take 8.4 s from the
 * hold to its mark (6.6 s for its claim alone), past a held copy's 8 s. LocalStack's DynamoDB
 * answers one request at a time (moto behind its provider): in CI a held claim copy gave up at
 * 7.5 s of its 8 there, the other copy through a moment too late (one claim took 2.3 s).
 */
const ASKED_TIMEOUT_SCALE = { standard: 1.5, localstack: 2 } as const;

/**
 * A phase's clocks: the function timeout it asks for (scaled to the backend), never below the
 * backend's; the queue's clock as asked, else at least the function's, as AWS requires of a
 * mapping's queue.
 */
export function phaseClocks(
  backend: { emulator: Emulator },
  asked: { functionTimeoutSeconds?: number; visibilitySeconds?: number },
): PhaseClocks {
  const timings = testTimings(backend);
  const scale = ASKED_TIMEOUT_SCALE[profileOf(backend).clocks];
  const functionTimeoutSeconds = Math.max(
    (asked.functionTimeoutSeconds ?? 0) * scale,
    timings.functionTimeoutSeconds,
  );
  const visibilityTimeoutSeconds =
    asked.visibilitySeconds ?? Math.max(timings.visibilityTimeoutSeconds, functionTimeoutSeconds);
  return { functionTimeoutSeconds, visibilityTimeoutSeconds };
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
