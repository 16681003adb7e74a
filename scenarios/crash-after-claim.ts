import { RETRY_AFTER } from "../harness/aws/timings.js";
import { claimsAre, equal, oneOrderEnded, phase, scenario } from "../harness/scenario/scenario.js";

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
        firstDeliveryCrashed(events),
        equal("the retry skipped it as a duplicate", observed.eventCounts.skip_duplicate, 1),
        ...oneOrderEnded(observed, "ORDER-005", "lost", 0),
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
          firstDeliveryCrashed(events),
          equal("claims won (the crashed copy, then the takeover)", won.length, 2),
          equal("the retry took over the expired lease", typeof won[1]?.tookOverFrom, "string"),
          equal(
            "charged after the lease expired",
            charged !== undefined && Date.parse(charged.ts) >= firstClaim + LEASE_MS,
            true,
          ),
          ...oneOrderEnded(observed, "ORDER-005", "exactly once", 1),
          claimsAre("claims table", observed, ["ORDER-005/COMPLETED"]),
        ];
      },
    }),
    phase("powertools idempotency, the winner crashes", {
      setup: { guard: "powertools", fault: "crash-after-claim", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-005" }),
      checks: ({ observed, events }) => [
        firstDeliveryCrashed(events),
        ...oneOrderEnded(observed, "ORDER-005", "exactly once", 1),
      ],
    }),
  ],
});

/** The crash is real: the first delivery logged a process_start and never a process_end. */
function firstDeliveryCrashed(events: { type: string; requestId: string }[]) {
  const first = events.find((e) => e.type === "process_start");
  const ended = events.some((e) => e.type === "process_end" && e.requestId === first?.requestId);
  return equal("the first delivery never ended: it crashed", ended, false);
}
