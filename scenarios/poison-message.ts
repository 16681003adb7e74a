import { RETRY_AFTER, TEST_TIMINGS } from "../harness/aws/timings.js";
import { equal, phase, scenario } from "../harness/scenario/scenario.js";

const { maxReceiveCount } = TEST_TIMINGS;

export default scenario({
  name: "poison-message",
  title: "Strict parsing: a malformed body fails loudly and ends in the dead-letter queue",
  story:
    "The fix for the malformed body on the worker's side: PARSE_MODE=strict refuses a body it " +
    'cannot read instead of inventing the key "unparseable". The record fails, SQS retries it ' +
    `after each visibility timeout (${RETRY_AFTER}), and after ${maxReceiveCount} receives the redrive policy moves it to ` +
    "the dead-letter queue, where someone can look at it. Nothing is claimed, nothing is charged, " +
    "and, unlike the lenient run, ORDER-002 is not silently swallowed by ORDER-001's claim.",
  phases: [
    phase("two mangled orders, strict parsing, lease guard", {
      setup: { guard: "lease", parseMode: "strict", workMs: 100 },
      workload: async (lab) => {
        await lab.send({ orderId: "ORDER-001", mangled: true });
        await lab.send({ orderId: "ORDER-002", mangled: true });
      },
      checks: ({ sent, observed, deadLettered }) => [
        equal("both messages dead-lettered", [...deadLettered].sort(), [...sent.messageIds].sort()),
        equal("dead-letter queue depth", observed.dlq, 2),
        equal(
          `parse_failed (${maxReceiveCount} tries each)`,
          observed.eventCounts.parse_failed,
          2 * maxReceiveCount,
        ),
        equal("claims", observed.claims.length, 0),
        equal(
          "ORDER-001 and ORDER-002 wait in the DLQ, not lost",
          [observed.intended["ORDER-001"]?.verdict, observed.intended["ORDER-002"]?.verdict],
          ["dead-lettered", "dead-lettered"],
        ),
        equal("charges", observed.charges.charges, 0),
      ],
    }),
  ],
});
