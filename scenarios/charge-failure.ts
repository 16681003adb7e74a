import { RETRY_AFTER } from "../harness/aws/timings.js";
import { claimsAre, equal, oneOrderEnded, phase, scenario } from "../harness/scenario/scenario.js";

export default scenario({
  name: "charge-failure",
  title: "The charge fails once: claim loses the order, lease and Powertools retry it",
  story:
    "One copy of ORDER-007, and the payment provider fails the first call (FAULT=fail-charge-once). " +
    "The worker reports the record as failed and SQS retries it after the visibility timeout " +
    `(${RETRY_AFTER}). The claim guard left its CLAIMED item behind, ` +
    "so the retry skips the order as a duplicate: never charged. The lease guard gave its claim " +
    "back (claim_released) before failing, and Powertools deletes its INPROGRESS record when the " +
    "function throws: their retry charges once.",
  phases: [
    phase("claim guard, the charge fails once", {
      setup: { guard: "claim", fault: "fail-charge-once", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-007" }),
      checks: ({ observed }) => [
        equal("charge_failed", observed.eventCounts.charge_failed, 1),
        equal("the retry skipped it as a duplicate", observed.eventCounts.skip_duplicate, 1),
        ...oneOrderEnded(observed, "ORDER-007", "lost", 0),
        claimsAre("claims table", observed, ["ORDER-007/CLAIMED"]),
      ],
    }),
    phase("lease guard, the charge fails once", {
      setup: { guard: "lease", fault: "fail-charge-once", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-007" }),
      checks: ({ observed }) => [
        equal("charge_failed", observed.eventCounts.charge_failed, 1),
        equal("claim_released", observed.eventCounts.claim_released, 1),
        equal("claims won (the failed try, then the retry)", observed.eventCounts.claim_won, 2),
        ...oneOrderEnded(observed, "ORDER-007", "exactly once", 1),
        claimsAre("claims table", observed, ["ORDER-007/COMPLETED"]),
      ],
    }),
    phase("powertools idempotency, the charge fails once", {
      setup: { guard: "powertools", fault: "fail-charge-once", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-007" }),
      checks: ({ observed }) => [
        equal("charge_failed", observed.eventCounts.charge_failed, 1),
        ...oneOrderEnded(observed, "ORDER-007", "exactly once", 1),
      ],
    }),
  ],
});
