import { TEST_TIMINGS } from "../harness/aws/timings.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import {
  atLeast,
  equal,
  oneOrderEnded,
  type PhaseFacts,
  type PhaseSetup,
  phase,
  scenario,
} from "../harness/scenario/scenario.js";

/**
 * The queue's clock set below the work's time, after the mapping exists. The function may run
 * 6 s: on a loaded 2-core machine 2.5 s of work outlasted the tests' 3 s, and a copy cut off
 * after its charge is crash-after-claim's lesson, not this one.
 */
const CLOCK = { visibilitySeconds: 1, workMs: 2_500, functionTimeoutSeconds: 6 } as const;
// Two pollers stand in for the several AWS runs per mapping: one is free to receive the copy
// that becomes visible again. (LocalStack's own mapping polls with one, and waits for it.)
const SHORT_CLOCK: Omit<PhaseSetup, "guard"> = { ...CLOCK, pollers: 2 };

const at = (e: WorkerEvent | undefined) => (e ? Date.parse(e.ts) : Number.NaN);

/** SQS handed the one message out again while its first invocation was still working. */
function deliveredAgainWhileWorking({ events }: PhaseFacts) {
  const first = events.find((e) => e.type === "process_start" && e.attempt === 1);
  const firstEnd = events.find((e) => e.type === "process_end" && e.requestId === first?.requestId);
  const again = events.find((e) => e.type === "process_start" && Number(e.attempt) > 1);
  return equal(
    `a second delivery (ApproximateReceiveCount 2) started before the first invocation ended`,
    at(again) < at(firstEnd),
    true,
  );
}

export default scenario({
  name: "visibility-clock",
  title: "The queue's clock: a visibility timeout shorter than the work delivers the order twice",
  story:
    "The article's first lab tried to make SQS deliver a duplicate by shortening the queue's " +
    'visibility timeout, saw nothing, and concluded that Lambda "extends the visibility timeout ' +
    'while it processes". It does not. AWS refuses a mapping whose function timeout is longer than ' +
    "the queue's visibility timeout when the mapping is created or updated (the lab's deploy " +
    "refuses it too), but nothing stops SetQueueAttributes from lowering the clock afterwards. " +
    `Here the queue's clock is set to ${CLOCK.visibilitySeconds} s after the mapping exists and ` +
    `the work takes ${CLOCK.workMs / 1000} s: the message becomes visible while its first ` +
    "invocation still runs, a second poller receives it (ApproximateReceiveCount 2) and a second " +
    "invocation starts. With the guard off the order is charged twice; with the claim guard the " +
    `second copy skips. With the deployed clock (${TEST_TIMINGS.visibilityTimeoutSeconds} s here), one delivery.`,
  phases: [
    phase("guard off, the deployed clock", {
      setup: {
        guard: "off",
        workMs: CLOCK.workMs,
        functionTimeoutSeconds: CLOCK.functionTimeoutSeconds,
        pollers: 2,
      },
      workload: (lab) => lab.send({ orderId: "ORDER-601" }),
      checks: (facts) => [
        equal("deliveries", facts.observed.eventCounts.process_start, 1),
        ...oneOrderEnded(facts.observed, "ORDER-601", "exactly once", 1),
      ],
    }),
    phase(`guard off, the clock lowered to ${CLOCK.visibilitySeconds} s`, {
      setup: { ...SHORT_CLOCK, guard: "off" },
      workload: (lab) => lab.send({ orderId: "ORDER-601" }),
      timing: (facts) => [
        deliveredAgainWhileWorking(facts),
        atLeast("invocations at once (maxConcurrency)", facts.observed.maxConcurrency, 2),
      ],
      checks: (facts) => [
        atLeast("charges", facts.observed.charges.charges, 2),
        equal("ORDER-601 duplicated", facts.observed.intended["ORDER-601"]?.verdict, "duplicated"),
      ],
    }),
    phase(`claim guard, the clock lowered to ${CLOCK.visibilitySeconds} s`, {
      setup: { ...SHORT_CLOCK, guard: "claim" },
      workload: (lab) => lab.send({ orderId: "ORDER-601" }),
      timing: (facts) => [deliveredAgainWhileWorking(facts)],
      checks: (facts) => [
        atLeast("skip_duplicate", facts.observed.eventCounts.skip_duplicate ?? 0, 1),
        ...oneOrderEnded(facts.observed, "ORDER-601", "exactly once", 1),
      ],
    }),
  ],
});
