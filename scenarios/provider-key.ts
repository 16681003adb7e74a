import {
  equal,
  eventCount,
  oneOrderEnded,
  type PhaseFacts,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

const COPIES = 4;
const sendCopies = (lab: Workload) => lab.send({ orderId: "ORDER-201", copies: COPIES });

/** What the provider holds: one item per charge, named by its key when there is one. */
const ledgerIds = ({ ledgerItems }: PhaseFacts) => ledgerItems.map((i) => i.chargeId).sort();

export default scenario({
  name: "provider-key",
  title: "The payment provider's idempotency key: the last line of defence, if the key is right",
  story:
    `${COPIES} copies of ORDER-201 with no guard in the worker at all. Payment APIs take an ` +
    "Idempotency-Key header: the provider keeps one charge per key and answers a repeated key " +
    "with the charge it already made (charge_replayed), nothing new. With the orderId as the key " +
    `(PROVIDER_KEY=orderId) the ${COPIES} copies charge once. With the SQS MessageId as the key, a ` +
    "common mistake, every copy is a new message with a new key: " +
    `${COPIES} charges, as if there were no key. The key must name the order, not the delivery.`,
  phases: [
    phase("guard off, no provider key", {
      setup: { guard: "off", workMs: 100 },
      workload: sendCopies,
      checks: (facts) => [
        ...oneOrderEnded(facts.observed, "ORDER-201", "duplicated", COPIES),
        equal("charge_replayed", eventCount(facts, "charge_replayed"), 0),
      ],
    }),
    phase("guard off, the orderId as the provider key", {
      setup: { guard: "off", workMs: 100, providerKey: "orderId" },
      workload: sendCopies,
      checks: (facts) => [
        ...oneOrderEnded(facts.observed, "ORDER-201", "exactly once", 1),
        equal(
          "charge_replayed (the provider answered the key)",
          eventCount(facts, "charge_replayed"),
          COPIES - 1,
        ),
        equal("the provider's one charge, under the key", ledgerIds(facts), ["orderId=ORDER-201"]),
      ],
    }),
    phase("guard off, the MessageId as the provider key", {
      setup: { guard: "off", workMs: 100, providerKey: "messageId" },
      workload: sendCopies,
      checks: (facts) => [
        ...oneOrderEnded(facts.observed, "ORDER-201", "duplicated", COPIES),
        equal(
          "charge_replayed (each copy had its own key)",
          eventCount(facts, "charge_replayed"),
          0,
        ),
        equal(
          "one charge per MessageId",
          ledgerIds(facts),
          facts.sent.messageIds.map((id) => `messageId=${id}`).sort(),
        ),
      ],
    }),
  ],
});
