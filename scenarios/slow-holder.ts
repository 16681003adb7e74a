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
 * The interleaving that breaks a naive lease, by construction: the first copy claims a short
 * lease and is held just before it charges (a failpoint) until the lease has run out and a
 * second copy has been through the guard; then it goes on to charge. No long work, no margin.
 * Every guard passes before-charge, so the guard matrix holds its row the same way.
 */
export const SLOW_HOLDER = { leaseMs: 300 } as const;

/**
 * A held copy is an invocation that runs until the harness lets it go, and Lambda ends any
 * invocation at its timeout: the hold lasts as long as the other copy takes to get through the
 * guard. In a clean-clone CI run, with the whole suite on 2 cores, that took 4 s from the
 * second send to its end (1.1 s to start, 1.6 s for one failpoint write), and the held copy,
 * giving up half a second before a 5 s timeout, was gone when the harness released it. So a
 * phase that holds a copy asks for 8 s (the queue's clock follows, as AWS requires), not the
 * tests' 4 s, and gets 12 s on MiniStack, 16 s on LocalStack (aws/timings.ts, phaseClocks: a
 * crowded emulator is slower still). A hold that is released in time costs nothing more; only
 * the retries of a copy that found the order busy wait the longer clock.
 */
export const HOLDS_A_COPY = { functionTimeoutSeconds: 8 } satisfies Omit<PhaseSetup, "guard">;

/** Copy 1 held just before it charges; copy 2's end marked, so the harness sees it is through. */
export const HELD_BEFORE_CHARGE = {
  failpoints: "before-charge=pause@copy1@attempt1;before-end=mark@copy2@attempt1",
  pollers: 2, // a poller is free for the second copy while the first is held
  ...HOLDS_A_COPY,
} satisfies Omit<PhaseSetup, "guard">;

export const SLOW_HOLDER_SETUP = {
  ...HELD_BEFORE_CHARGE,
  leaseMs: SLOW_HOLDER.leaseMs,
} satisfies Omit<PhaseSetup, "guard">;

/**
 * One copy, held as it is about to charge; a second copy, after `gapMs` (the lease running out)
 * if given; once the second is through the guard, the first goes on.
 */
export async function secondCopyWhileHeld(lab: Workload, orderId: string, gapMs = 0) {
  await lab.send({ orderId });
  const first = lab.at("before-charge", 1);
  await first.reached();
  if (gapMs > 0) await lab.pause(gapMs);
  await lab.send({ orderId });
  await lab.at("before-end", 2).reached();
  await first.release();
}

/** As secondCopyWhileHeld, the second copy sent once the lease (taken before the hold) ran out. */
export const secondCopyWhileWorking = (lab: Workload, orderId: string) =>
  secondCopyWhileHeld(lab, orderId, SLOW_HOLDER.leaseMs);

/** The second copy was done with the guard while the first was held: they overlapped for sure. */
export function whileTheFirstWasHeld({ sent, events }: PhaseFacts) {
  const [first, second] = sent.messageIds;
  const ts = (e: WorkerEvent | undefined) => (e ? Date.parse(e.ts) : Number.NaN);
  const secondDone = events.find((e) => e.messageId === second && e.type === "failpoint");
  const released = events.find((e) => e.messageId === first && e.type === "failpoint_released");
  return equal(
    "the second copy went through the guard while the first was held before its charge",
    ts(secondDone) <= ts(released),
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
    `One copy of ORDER-009 claims a ${SLOW_HOLDER.leaseMs} ms lease; the lab holds it there, just ` +
    "before it charges (a failpoint), as a slow payment call would. Once the lease has run out a " +
    "second copy is sent, and the first copy goes on only after the second is through the guard. Unfenced (LEASE_DEFENCES=none), the " +
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
      checks: (facts) => [
        whileTheFirstWasHeld(facts),
        tookTheLeaseOver(facts),
        ...oneOrderEnded(facts.observed, "ORDER-009", "duplicated", 2),
      ],
    }),
    phase("fenced lease, the lease alone runs out", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "lease", leaseDefences: "fence" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      checks: (facts) => [
        whileTheFirstWasHeld(facts),
        tookTheLeaseOver(facts),
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
      checks: (facts) => [
        whileTheFirstWasHeld(facts),
        metTheLeaseHeld(facts),
        equal(
          "the second copy never took the lease over",
          said(facts.events, "claim_won", facts.sent.messageIds[1]),
          false,
        ),
        ...oneOrderEnded(facts.observed, "ORDER-009", "exactly once", 1),
      ],
    }),
    phase("powertools idempotency, the same interleaving", {
      setup: { ...SLOW_HOLDER_SETUP, guard: "powertools" },
      workload: (lab) => secondCopyWhileWorking(lab, "ORDER-009"),
      checks: (facts) => [
        whileTheFirstWasHeld(facts),
        metTheLeaseHeld(facts),
        ...oneOrderEnded(facts.observed, "ORDER-009", "exactly once", 1),
      ],
    }),
  ],
});
