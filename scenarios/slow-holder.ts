import type { WorkerEvent } from "../harness/observe/events.js";
import {
  equal,
  oneOrderEnded,
  type PhaseFacts,
  type PhaseSetup,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

/**
 * The timing that breaks a naive lease: the work outlives the lease, a copy arrives between.
 * The second copy is sent a while after the first one's claim, timed from the claim itself: a
 * loaded machine may take most of a second to hand the first copy over.
 */
export const SLOW_HOLDER = { leaseMs: 300, workMs: 3_000, afterClaimMs: 500 } as const;

/** One copy, then a second one while the first is still working, after its lease ran out. */
export async function secondCopyWhileWorking(lab: Workload, orderId: string) {
  await lab.send({ orderId });
  await lab.untilClaimed();
  await lab.pause(SLOW_HOLDER.afterClaimMs);
  await lab.send({ orderId });
}

export const SLOW_HOLDER_SETUP = {
  workMs: SLOW_HOLDER.workMs,
  leaseMs: SLOW_HOLDER.leaseMs,
  pollers: 2, // both copies are handed over at once, whatever the mapping's own pace
  // The work is long so that, even when a loaded machine takes a second or more to hand the
  // second copy over and answer its first call, that copy still meets the lease before the
  // first one is done; the function may run 8 s so the slow copy is slow, not cut off (with
  // LocalStack's cold starts inside it).
  functionTimeoutSeconds: 8,
} satisfies Omit<PhaseSetup, "guard">;

/**
 * The race really happened: the second copy's invocation started after the first copy's lease
 * ran out and before the first copy finished its work. (Its first logged guard step may come
 * later: a copy that finds the lease held looks again a few times before it says so.) A run that
 * missed the gap proves nothing.
 */
function arrivedInTheGap({ sent, events }: PhaseFacts) {
  const [first, second] = sent.messageIds;
  const at = (e: WorkerEvent | undefined) => (e ? Date.parse(e.ts) : Number.NaN);
  const firstClaim = at(events.find((e) => e.messageId === first && e.type === "claim_won"));
  const firstEnd = at(events.find((e) => e.messageId === first && e.type === "process_end"));
  const secondStart = at(events.find((e) => e.messageId === second && e.type === "process_start"));
  const after = secondStart - firstClaim;
  return equal(
    `the second copy started after the lease ran out (${SLOW_HOLDER.leaseMs} ms) and before the first copy was done`,
    after > SLOW_HOLDER.leaseMs && secondStart < firstEnd,
    true,
  );
}

const said = (events: WorkerEvent[], type: string, messageId: string | undefined) =>
  events.some((e) => e.type === type && e.messageId === messageId);

/** Unguarded by the expiry floor, the second copy found the lease run out and took it. */
const tookTheLeaseOver = ({ events, sent }: PhaseFacts) =>
  equal("the second copy took the lease over", said(events, "claim_won", sent.messageIds[1]), true);

/**
 * The second copy looked while the first still held the order, where a plain lease would have
 * run out: it found it busy (or took it over, which the phase's checks then call a failure).
 * Had it looked only after the first was done (claim_lost), nothing raced.
 */
const metTheLeaseHeld = ({ events, sent }: PhaseFacts) =>
  equal(
    "the second copy looked while the first still held the order (not only claim_lost)",
    said(events, "claim_busy", sent.messageIds[1]) || said(events, "claim_won", sent.messageIds[1]),
    true,
  );

export default scenario({
  name: "slow-holder",
  title: "The work outlives the lease: unfenced, a slow copy charges twice",
  story:
    `One copy of ORDER-009 claims a ${SLOW_HOLDER.leaseMs} ms lease and works for ` +
    `${SLOW_HOLDER.workMs} ms; a second copy is sent ${SLOW_HOLDER.afterClaimMs} ms after that claim, when the ` +
    "lease has run out but the first copy is still charging. Unfenced (LEASE_DEFENCES=none), the " +
    "second copy takes the lease over and charges, and so does the first: two charges. With the " +
    "fence alone, the charge and COMPLETED are one transaction that holds only while the copy " +
    "still owns the lease: the slow copy records nothing (lease_lost) and its retry skips. With " +
    "both defences (the default) the lease also lasts as long as the invocation may run, so the " +
    "second copy finds it busy. Powertools does the same with its INPROGRESS record. In the real " +
    "world the fence is the payment provider's idempotency key: the last word on a charge " +
    "belongs to whoever records it.",
  phases: [
    phase("unfenced lease, the work outlives it", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "lease", leaseDefences: "none" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      timing: (facts) => [arrivedInTheGap(facts), tookTheLeaseOver(facts)],
      checks: (facts) => [...oneOrderEnded(facts.observed, "ORDER-009", "duplicated", 2)],
    }),
    phase("fenced lease, the lease alone runs out", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "lease", leaseDefences: "fence" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      timing: (facts) => [arrivedInTheGap(facts), tookTheLeaseOver(facts)],
      checks: (facts) => [
        equal(
          "the fence refused the slow copy (lease_lost)",
          said(facts.events, "lease_lost", facts.sent.messageIds[0]),
          true,
        ),
        ...oneOrderEnded(facts.observed, "ORDER-009", "exactly once", 1),
      ],
    }),
    phase("lease with both defences", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "lease", leaseDefences: "both" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      timing: (facts) => [arrivedInTheGap(facts), metTheLeaseHeld(facts)],
      checks: (facts) => [
        equal(
          "the second copy never took the lease over",
          said(facts.events, "claim_won", facts.sent.messageIds[1]),
          false,
        ),
        ...oneOrderEnded(facts.observed, "ORDER-009", "exactly once", 1),
      ],
    }),
    phase("powertools idempotency, the same timing", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "powertools" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      timing: (facts) => [arrivedInTheGap(facts), metTheLeaseHeld(facts)],
      checks: (facts) => [...oneOrderEnded(facts.observed, "ORDER-009", "exactly once", 1)],
    }),
  ],
});
