import { equal, phase, scenario } from "../harness/scenario/scenario.js";

export default scenario({
  name: "guard-off",
  title: "No guard: every copy charges",
  story:
    "The producer sends the same order four times, as a double-clicked Pay button or a retrying " +
    "client would. SQS gives each copy its own MessageId, and with no guard the worker charges " +
    "every one: four charges for one order. Look at the charges view: 4 charges, 1 order, 4 messages.",
  phases: [
    phase("four copies, guard off", {
      setup: { guard: "off", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-001", copies: 4 }),
      checks: ({ sent, observed }) => [
        equal("distinct MessageIds", new Set(sent.messageIds).size, 4),
        equal("process_start events", observed.eventCounts.process_start, 4),
        equal("charge_applied events", observed.eventCounts.charge_applied, 4),
        equal("process_end events", observed.eventCounts.process_end, 4),
        equal("charges / orders / messages", observed.charges, {
          charges: 4,
          orders: 1,
          messages: 4,
        }),
        equal("ORDER-001 charged four times", observed.chargesByOrder, { "ORDER-001": 4 }),
        equal("ledger items (what the customer's card shows)", observed.ledger, 4),
        equal("claims (no guard, no claims)", observed.claims.length, 0),
      ],
    }),
  ],
});
