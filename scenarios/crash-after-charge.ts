import { parseFailpoints } from "../contract/failpoints.js";
import { RETRY_AFTER } from "../harness/aws/timings.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import { claimsAre, equal, oneOrderEnded, phase, scenario } from "../harness/scenario/scenario.js";

/**
 * Found by `npx lab explore`, not by a scenario: the copy dies after the payment went through and
 * before its record says COMPLETED. The failpoint kills it there, on its first delivery only.
 */
const DIES_AFTER_ITS_CHARGE = { failpoints: "after-charge=crash@attempt1" } as const;
parseFailpoints(DIES_AFTER_ITS_CHARGE.failpoints); // a typo fails at load, not in the worker

/** The crash is real: the first delivery charged, then logged no process_end. */
function firstDeliveryDiedAfterItsCharge(events: WorkerEvent[]) {
  const first = events.find((e) => e.type === "process_start");
  const mine = events.filter((e) => e.requestId === first?.requestId);
  return equal(
    "the first delivery charged, then died (no process_end)",
    mine.some((e) => e.type === "charge_applied") && !mine.some((e) => e.type === "process_end"),
    true,
  );
}

export default scenario({
  name: "crash-after-charge",
  title: "The copy dies after the charge, before COMPLETED: Powertools charges again",
  story:
    "One copy of ORDER-010. The payment goes through, then the copy is killed before its record " +
    "says COMPLETED (a failpoint, after-charge=crash, first delivery only). SQS delivers the " +
    `message again (${RETRY_AFTER}). Powertools' INPROGRESS record expired with the dead ` +
    "invocation, so the retry runs the charge again: two charges. The lease guard writes the " +
    "charge and COMPLETED in one transaction (its fence), so there is no moment between them to " +
    "die in: the retry finds COMPLETED and skips. The claim guard skips too, but its CLAIMED " +
    "item stays for ever. The interleaving explorer (npx lab explore) found this one: every " +
    "guard that records the charge and the completion in two writes has the gap.",
  phases: [
    phase("powertools, the copy dies after its charge", {
      setup: { guard: "powertools", ...DIES_AFTER_ITS_CHARGE },
      workload: (lab) => lab.send({ orderId: "ORDER-010" }),
      checks: ({ observed, events }) => [
        firstDeliveryDiedAfterItsCharge(events),
        ...oneOrderEnded(observed, "ORDER-010", "duplicated", 2),
      ],
    }),
    phase("lease with its fence, the same death", {
      setup: { guard: "lease", ...DIES_AFTER_ITS_CHARGE },
      workload: (lab) => lab.send({ orderId: "ORDER-010" }),
      checks: ({ observed, events }) => [
        firstDeliveryDiedAfterItsCharge(events),
        equal("the retry skipped it", observed.eventCounts.skip_duplicate, 1),
        ...oneOrderEnded(observed, "ORDER-010", "exactly once", 1),
        claimsAre("claims table", observed, ["ORDER-010/COMPLETED"]),
      ],
    }),
    phase("claim, the same death", {
      setup: { guard: "claim", ...DIES_AFTER_ITS_CHARGE },
      workload: (lab) => lab.send({ orderId: "ORDER-010" }),
      checks: ({ observed, events }) => [
        firstDeliveryDiedAfterItsCharge(events),
        ...oneOrderEnded(observed, "ORDER-010", "exactly once", 1),
        claimsAre("claims table: charged, yet CLAIMED for ever", observed, ["ORDER-010/CLAIMED"]),
      ],
    }),
  ],
});
