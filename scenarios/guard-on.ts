import { claimsAre, equal, oneOf, phase, scenario } from "../harness/scenario/scenario.js";

export default scenario({
  name: "guard-on",
  title: "The conditional claim: one copy charges",
  story:
    "Ten copies of ORDER-003 with the article's guard on: each copy tries a DynamoDB PutItem with " +
    "attribute_not_exists(orderId). Exactly one wins the claim and charges; the other nine get " +
    "ConditionalCheckFailedException, log claim_lost and skip_duplicate, and charge nothing. The " +
    "claims table ends with one ORDER-003 item, COMPLETED, naming the copy that won.",
  phases: [
    phase("ten copies, guard on", {
      setup: { guard: "claim", workMs: 200 },
      workload: (lab) => lab.send({ orderId: "ORDER-003", copies: 10 }),
      checks: ({ sent, observed }) => [
        equal("distinct MessageIds", new Set(sent.messageIds).size, 10),
        equal("charges / orders / messages", observed.charges, {
          charges: 1,
          orders: 1,
          messages: 1,
        }),
        equal("claim_won", observed.eventCounts.claim_won, 1),
        equal("claim_lost", observed.eventCounts.claim_lost, 9),
        equal("skip_duplicate", observed.eventCounts.skip_duplicate, 9),
        equal("process_end events", observed.eventCounts.process_end, 10),
        claimsAre("claims table", observed, ["ORDER-003/COMPLETED"]),
        oneOf(
          "completedMessageId is one of the copies sent",
          observed.claims[0]?.completedMessageId,
          sent.messageIds,
        ),
        equal("ledger items", observed.ledger, 1),
      ],
    }),
  ],
});
