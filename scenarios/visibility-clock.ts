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
  type Workload,
} from "../harness/scenario/scenario.js";
import { HOLDS_A_COPY } from "./slow-holder.js";

/**
 * The queue's clock set below the work's time, after the mapping exists. The first delivery is
 * held just before it charges (a failpoint) until SQS has handed the message out again and that
 * second delivery has been through the guard: the work outlives the clock by construction.
 */
const CLOCK = { visibilitySeconds: 1 } as const;
/** With the deployed clock, a second of work: well inside it, so one delivery. */
const DEPLOYED_WORK_MS = 1_000;
const HELD_UNTIL_DELIVERED_AGAIN: Omit<PhaseSetup, "guard"> = {
  ...CLOCK,
  ...HOLDS_A_COPY, // the queue's clock stays 1 s: that is the lesson
  failpoints: "before-charge=pause@copy1@attempt1;before-end=mark@copy1@attempt2",
  // Two pollers stand in for the several AWS runs per mapping: one is free to receive the copy
  // that becomes visible again while the other waits on the held invocation.
  pollers: 2,
};

/** The one message, its first delivery held; its second delivery through the guard; then the first goes on. */
async function deliveredAgainWhileHeld(lab: Workload) {
  await lab.send({ orderId: "ORDER-601" });
  const first = lab.at("before-charge", 1);
  await first.reached();
  await lab.at("before-end", 1, 2).reached(); // SQS's clock, not ours: about a second
  await first.release();
}

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
    `Here the queue's clock is set to ${CLOCK.visibilitySeconds} s after the mapping exists, and ` +
    "the first invocation is held just before it charges (a failpoint, as a slow payment call " +
    "would be) until the message has become visible again: a second poller receives it (ApproximateReceiveCount 2) and a second " +
    "invocation starts. With the guard off the order is charged twice; with the claim guard the " +
    `second copy skips. With the deployed clock (${TEST_TIMINGS.visibilityTimeoutSeconds} s here), one delivery.`,
  phases: [
    phase("guard off, the deployed clock", {
      setup: {
        guard: "off",
        workMs: DEPLOYED_WORK_MS,
        pollers: 2,
      },
      workload: (lab) => lab.send({ orderId: "ORDER-601" }),
      checks: (facts) => [
        equal("deliveries", facts.observed.eventCounts.process_start, 1),
        ...oneOrderEnded(facts.observed, "ORDER-601", "exactly once", 1),
      ],
    }),
    phase(`guard off, the clock lowered to ${CLOCK.visibilitySeconds} s`, {
      setup: { ...HELD_UNTIL_DELIVERED_AGAIN, guard: "off" },
      workload: deliveredAgainWhileHeld,
      checks: (facts) => [
        deliveredAgainWhileWorking(facts),
        atLeast("invocations at once (maxConcurrency)", facts.observed.maxConcurrency, 2),
        atLeast("charges", facts.observed.charges.charges, 2),
        equal("ORDER-601 duplicated", facts.observed.intended["ORDER-601"]?.verdict, "duplicated"),
      ],
    }),
    phase(`claim guard, the clock lowered to ${CLOCK.visibilitySeconds} s`, {
      setup: { ...HELD_UNTIL_DELIVERED_AGAIN, guard: "claim" },
      workload: deliveredAgainWhileHeld,
      checks: (facts) => [
        deliveredAgainWhileWorking(facts),
        atLeast("skip_duplicate", facts.observed.eventCounts.skip_duplicate ?? 0, 1),
        ...oneOrderEnded(facts.observed, "ORDER-601", "exactly once", 1),
      ],
    }),
  ],
});
