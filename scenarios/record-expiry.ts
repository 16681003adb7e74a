import type { GuardName } from "../contract/settings.js";
import {
  claimsAre,
  equal,
  oneOrderEnded,
  type PhaseFacts,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

/** The guard remembers a completed order this long; the late copy comes after it forgot. */
export const TTL_SECONDS = 1;

/** One copy, charged; then, once the record has expired, a copy of the same order. */
export const aLateCopy = (orderId: string) => async (lab: Workload) => {
  await lab.send({ orderId });
  await lab.settle();
  // The record was written before settle returned, and expiry counts whole epoch seconds (the
  // guards and DynamoDB's TTL alike): by the second after this one plus TTL, it has expired.
  const expired = (Math.floor(Date.now() / 1000) + TTL_SECONDS + 1) * 1000;
  await lab.pause(expired - Date.now());
  await lab.send({ orderId });
};

/** The record the late copy found: still there (nobody swept it), and taken over by the late copy. */
const completedBy = ({ observed }: PhaseFacts) => observed.claims[0]?.completedMessageId;

const forgets = (guard: GuardName) =>
  phase(`${guard}, records kept ${TTL_SECONDS} s, a copy once that ran out`, {
    setup: { guard, workMs: 100, recordTtlSeconds: TTL_SECONDS },
    workload: aLateCopy("ORDER-301"),
    checks: (facts) => [
      ...oneOrderEnded(facts.observed, "ORDER-301", "duplicated", 2),
      ...(guard === "lease"
        ? [
            claimsAre("claims table: the expired record, taken over", facts.observed, [
              "ORDER-301/COMPLETED",
            ]),
            equal("completed by the late copy", completedBy(facts), facts.sent.messageIds[1]),
          ]
        : [
            equal(
              "claim_won (both copies: the record had expired)",
              facts.observed.eventCounts.claim_won,
              2,
            ),
          ]),
    ],
  });

const remembers = (guard: GuardName) =>
  phase(`${guard}, records kept an hour (the default), the same late copy`, {
    setup: { guard, workMs: 100 },
    workload: aLateCopy("ORDER-301"),
    checks: (facts) => [
      ...oneOrderEnded(facts.observed, "ORDER-301", "exactly once", 1),
      equal("skip_duplicate", facts.observed.eventCounts.skip_duplicate, 1),
    ],
  });

export default scenario({
  name: "record-expiry",
  title: "A duplicate after the guard forgot: the record's lifetime must outlast every retry",
  story:
    "One copy of ORDER-301 is charged; a second copy arrives once the record has expired " +
    `(${TTL_SECONDS}–${TTL_SECONDS + 1} s later), as a producer's late retry would. The guards keep a COMPLETED record ` +
    `for RECORD_TTL_SECONDS (Powertools' expiresAfterSeconds); here ${TTL_SECONDS} s. The late copy ` +
    "finds an expired record and is charged again. DynamoDB's TTL sweep may take long to delete " +
    "an expired item, so the guards do not wait for it: they treat an expired record as absent " +
    "themselves (the lease's condition, Powertools' own). With the default hour, the same copy " +
    "is skipped. The lesson: the guard's memory must outlast the longest a producer may retry.",
  phases: [forgets("lease"), forgets("powertools"), remembers("lease"), remembers("powertools")],
});
