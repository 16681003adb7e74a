import { TEST_TIMINGS } from "../harness/aws/timings.js";
import {
  equal,
  type PhaseFacts,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

/** The first order, then, once it is charged, the same orderId with another amount. */
async function sameIdOtherAmount(lab: Workload) {
  await lab.send({ orderId: "ORDER-008", amount: 150 });
  await lab.settle();
  await lab.send({ orderId: "ORDER-008", amount: 999 });
}

/** One charge at the first amount; the other refused on every try, then dead-lettered. */
const refusedOutLoud = ({ sent, observed, ledgerItems, deadLettered }: PhaseFacts) => [
  equal(
    "charged amounts",
    ledgerItems.map((i) => i.amount),
    [150],
  ),
  equal(
    "payload_mismatch (every try)",
    observed.eventCounts.payload_mismatch,
    TEST_TIMINGS.maxReceiveCount,
  ),
  equal("the 999.00 message is in the dead-letter queue", deadLettered, sent.messageIds.slice(1)),
];

export default scenario({
  name: "payload-mismatch",
  title: "Same orderId, different amount: refused out loud, not skipped",
  story:
    "ORDER-008 is charged 150.00; then a message arrives with the same orderId and 999.00. Is it " +
    "a duplicate? A guard that looks only at the key says yes and skips it silently: if it was a " +
    "bug upstream, nobody will ever know. The lease guard stores a fingerprint of the payload with " +
    "its claim and refuses a copy whose payload differs (payload_mismatch): the record fails, is " +
    `retried ${TEST_TIMINGS.maxReceiveCount} times and lands in the dead-letter queue for a person to ` +
    "look at. Powertools does the same with payload validation.",
  phases: [
    phase("claim guard: the different amount is skipped silently", {
      setup: { guard: "claim", workMs: 100 },
      workload: sameIdOtherAmount,
      checks: ({ observed, ledgerItems }) => [
        equal(
          "charged amounts",
          ledgerItems.map((i) => i.amount),
          [150],
        ),
        equal("skip_duplicate", observed.eventCounts.skip_duplicate, 1),
        equal("payload_mismatch", observed.eventCounts.payload_mismatch ?? 0, 0),
        equal("dead-lettered", observed.dlq, 0),
      ],
    }),
    phase("lease guard: the different amount is refused and dead-lettered", {
      setup: { guard: "lease", workMs: 100 },
      workload: sameIdOtherAmount,
      checks: (facts) => [
        ...refusedOutLoud(facts),
        equal("skip_duplicate", facts.observed.eventCounts.skip_duplicate ?? 0, 0),
      ],
    }),
    phase("powertools idempotency: payload validation refuses it", {
      setup: { guard: "powertools", workMs: 100 },
      workload: sameIdOtherAmount,
      checks: refusedOutLoud,
    }),
  ],
});
