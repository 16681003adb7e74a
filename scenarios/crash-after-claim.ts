import { RETRY_AFTER } from "../harness/aws/timings.js";
import { claimsAre, equal, phase, scenario } from "../harness/scenario/scenario.js";

const LEASE_MS = 2_000;

export default scenario({
  name: "crash-after-claim",
  title: "The winner dies after claiming: claim loses the order, lease recovers it",
  story:
    "One copy of ORDER-005. The copy that wins the claim is killed before it charges (FAULT=" +
    "crash-after-claim, first delivery only), as a timeout or an out-of-memory kill would. SQS " +
    `delivers the message again after the visibility timeout (${RETRY_AFTER}). ` +
    "The claim guard finds its own CLAIMED item, calls it a duplicate and skips it: the order is " +
    `never charged. The lease guard sees a lease that ran out (${LEASE_MS / 1000} s here), takes it ` +
    "over and charges once. Powertools does the same with its INPROGRESS record, which expires " +
    "with the function timeout. On AWS you would use a lease longer than the function timeout " +
    "and a visibility timeout of about six times it: minutes, not seconds.",
  phases: [
    phase("claim guard, the winner crashes", {
      setup: { guard: "claim", fault: "crash-after-claim", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-005" }),
      checks: ({ observed, events }) => [
        equal("deliveries (the crash, then the retry)", observed.eventCounts.process_start, 2),
        equal("the first delivery never ended: it crashed", firstDeliveryEnded(events), false),
        equal("the retry skipped it as a duplicate", observed.eventCounts.skip_duplicate, 1),
        equal("charges", observed.charges.charges, 0),
        equal("ORDER-005 lost", observed.intended["ORDER-005"]?.verdict, "lost"),
        claimsAre("claims table: a reservation nobody will keep", observed, ["ORDER-005/CLAIMED"]),
      ],
    }),
    phase("lease guard, the winner crashes", {
      setup: { guard: "lease", fault: "crash-after-claim", workMs: 100, leaseMs: LEASE_MS },
      workload: (lab) => lab.send({ orderId: "ORDER-005" }),
      checks: ({ observed, events }) => {
        const won = events.filter((e) => e.type === "claim_won");
        const firstClaim = won[0] ? Date.parse(won[0].ts) : Number.NaN;
        const charged = events.find((e) => e.type === "charge_applied");
        return [
          equal("the first delivery never ended: it crashed", firstDeliveryEnded(events), false),
          equal("claims won (the crashed copy, then the takeover)", won.length, 2),
          equal("the retry took over the expired lease", typeof won[1]?.tookOverFrom, "string"),
          equal(
            "charged after the lease expired",
            charged !== undefined && Date.parse(charged.ts) >= firstClaim + LEASE_MS,
            true,
          ),
          equal("charges", observed.charges.charges, 1),
          equal("ORDER-005 exactly once", observed.intended["ORDER-005"]?.verdict, "exactly once"),
          claimsAre("claims table", observed, ["ORDER-005/COMPLETED"]),
        ];
      },
    }),
    phase("powertools idempotency, the winner crashes", {
      setup: { guard: "powertools", fault: "crash-after-claim", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-005" }),
      checks: ({ observed, events }) => [
        equal("the first delivery never ended: it crashed", firstDeliveryEnded(events), false),
        equal("charges", observed.charges.charges, 1),
        equal("ORDER-005 exactly once", observed.intended["ORDER-005"]?.verdict, "exactly once"),
      ],
    }),
  ],
});

function firstDeliveryEnded(events: { type: string; requestId: string }[]): boolean {
  const first = events.find((e) => e.type === "process_start");
  return events.some((e) => e.type === "process_end" && e.requestId === first?.requestId);
}
