// The guard matrix's failure modes (its rows) and guards (its columns), with what the lab
// teaches each guard does against each mode; guard-matrix.ts runs every cell, guard-column.ts
// one column, graded.
import { parseFailpoints } from "../contract/failpoints.js";
import type { GuardName } from "../contract/settings.js";
import { GUARDS } from "../contract/settings.js";
import type { FailureKind, Failures } from "../harness/check/failures.js";
import { mismatchFailures } from "../harness/check/verdicts.js";
import { LabError } from "../harness/common/errors.js";
import type { Hold } from "../harness/drive/failpoints.js";
import type { Check, PhaseFacts, PhaseSetup, Workload } from "../harness/scenario/scenario.js";
import { aLateCopy, TTL_SECONDS } from "./record-expiry.js";
import {
  HELD_BEFORE_CHARGE,
  SLOW_HOLDER,
  SLOW_HOLDER_SETUP,
  secondCopyWhileHeld,
  secondCopyWhileWorking,
  whileTheFirstWasHeld,
} from "./slow-holder.js";

/** A guard's first PutItem on its table (the claims table, or Powertools'): its answer lost. */
const FIRST_WRITE_ANSWER_LOST = ["claims", "powertools"]
  .map((table) => `dynamo:PutItem:${table}=lost-answer@copy1@attempt1`)
  .join(";");
parseFailpoints(FIRST_WRITE_ANSWER_LOST); // a typo fails at load, not in the worker

/**
 * A failure mode: what happens, and for each guard what the lab teaches it does: no failure
 * (every order charged exactly once), or the kinds of failure it shows (doubled, lost, …).
 */
export interface FailureMode {
  name: string;
  setup: Omit<PhaseSetup, "guard">;
  workload: (lab: Workload) => Promise<unknown>;
  expect: Record<ColumnName, FailureKind[]>;
  failures?: (facts: PhaseFacts) => Failures;
  /** For races: the check that the copies overlapped as the row says (failpoints make them). */
  overlap?: (facts: PhaseFacts) => Check;
  /**
   * For races, in a graded column (guardColumn): the same script, with waits a guard of
   * someone's own cannot turn into a hang (see secondCopyWhileHeldAtMost).
   */
  gradedWorkload?: (lab: Workload) => Promise<unknown>;
}

/**
 * One column per guard, and one more: no guard in the worker, but a payment provider that keeps
 * one charge per idempotency key, the orderId (see provider-key).
 */
export const COLUMNS: { name: string; setup: Pick<PhaseSetup, "guard" | "providerKey"> }[] = [
  ...GUARDS.map((guard) => ({ name: guard, setup: { guard } })),
  { name: "off + provider key", setup: { guard: "off", providerKey: "orderId" } },
];
export type ColumnName = GuardName | "off + provider key";
export const MATRIX_COLUMNS = COLUMNS.map((c) => c.name);

const every = (kinds: FailureKind[]) =>
  Object.fromEntries(COLUMNS.map((c) => [c.name, kinds])) as Record<ColumnName, FailureKind[]>;
const ONCE: FailureKind[] = [];

export const MODES: FailureMode[] = [
  {
    name: "duplicate copies",
    setup: { workMs: 100, pollers: 1 }, // one poller: the copies arrive one after another
    workload: (lab) => lab.send({ orderId: "ORDER-101", copies: 4 }),
    expect: { ...every(ONCE), off: ["doubled"] },
  },
  {
    // Scripted: the first copy is held just before it charges (it has read, claimed or taken
    // its lease) until the second has been through the guard. racing-copies races for real.
    name: "racing copies",
    setup: { ...HELD_BEFORE_CHARGE },
    workload: (lab) => secondCopyWhileHeld(lab, "ORDER-102"),
    gradedWorkload: (lab) => secondCopyWhileHeldAtMost(lab, "ORDER-102"),
    expect: { ...every(ONCE), off: ["doubled"], naive: ["doubled"] },
    overlap: whileTheFirstWasHeld,
  },
  {
    name: "malformed body",
    setup: { workMs: 100 },
    workload: async (lab) => {
      await lab.send({ orderId: "ORDER-103", mangled: true });
      await lab.settle();
      await lab.send({ orderId: "ORDER-104", mangled: true });
    },
    // No guard can: the key it is given is already wrong. Without one, both orders charge as
    // "unparseable"; with any, the second is skipped as a duplicate of the first: lost.
    expect: { ...every(["lost", "wrong key"]), off: ["wrong key"] },
  },
  {
    name: "crash after claim",
    setup: { workMs: 100, fault: "crash-after-claim", leaseMs: 2_000 },
    workload: (lab) => lab.send({ orderId: "ORDER-105" }),
    expect: { ...every(ONCE), claim: ["lost"] },
  },
  {
    name: "charge failure",
    setup: { workMs: 100, fault: "fail-charge-once" },
    workload: (lab) => lab.send({ orderId: "ORDER-106" }),
    expect: { ...every(ONCE), claim: ["lost"] },
  },
  {
    name: "payload mismatch",
    setup: { workMs: 100 },
    workload: async (lab) => {
      await lab.send({ orderId: "ORDER-107", amount: 150 });
      await lab.settle();
      await lab.send({ orderId: "ORDER-107", amount: 999 });
    },
    // Off charges the second amount too; naive and claim skip it as if it were the same order.
    // The provider refuses a key it knows for another amount, as payment APIs do.
    expect: {
      ...every(ONCE),
      off: ["doubled"],
      naive: ["mismatch skipped silently"],
      claim: ["mismatch skipped silently"],
    },
    failures: mismatchFailures,
  },
  {
    name: "work outlives the lease",
    setup: SLOW_HOLDER_SETUP,
    workload: (lab) => secondCopyWhileWorking(lab, "ORDER-108"),
    gradedWorkload: (lab) => secondCopyWhileHeldAtMost(lab, "ORDER-108", SLOW_HOLDER.leaseMs),
    // The second copy arrives while the first still works: off and naive (whose read finds
    // nothing before the first copy's write) charge twice; the lease holds by its defences.
    expect: { ...every(ONCE), off: ["doubled"], naive: ["doubled"] },
    overlap: whileTheFirstWasHeld,
  },
  {
    name: "a copy after the record expired",
    setup: { workMs: 100, recordTtlSeconds: TTL_SECONDS },
    workload: aLateCopy("ORDER-109"),
    // Only the lease and Powertools let a record expire (RECORD_TTL_SECONDS); naive and claim
    // keep theirs forever, in a table that only grows, and the provider keeps every key.
    expect: { ...every(ONCE), off: ["doubled"], lease: ["doubled"], powertools: ["doubled"] },
  },
  {
    // The guard's first write to its own table (claims, or Powertools'), applied by DynamoDB,
    // its answer lost; the SDK's own retries (contract/retries.ts) decide what follows. A
    // column that writes neither (off) meets no fault here.
    name: "DynamoDB's answer lost, the SDK retried",
    setup: { workMs: 100, failpoints: FIRST_WRITE_ANSWER_LOST },
    workload: (lab) => lab.send({ orderId: "ORDER-110" }),
    expect: { ...every(ONCE), claim: ["lost"] },
  },
  {
    // The provider charged, the worker got a timeout: a failed charge to it, retried by SQS.
    name: "the payment went through, its answer lost",
    setup: { workMs: 100, failpoints: "payment=lost-answer@copy1@attempt1" },
    workload: (lab) => lab.send({ orderId: "ORDER-111" }),
    expect: { ...every(ONCE), off: ["doubled"], naive: ["doubled"], powertools: ["doubled"] },
  },
];

/**
 * The racing rows of a graded column ask for 10 s for the held copy's invocation (15 s on
 * MiniStack, 20 s on LocalStack), more than the matrix's HOLDS_A_COPY: copy 2 then has 13.5 s
 * on MiniStack to get through someone's own guard (in CI, with the whole suite beside it, the
 * 3.5 s that a 5 s clock left were once not enough for a copy of the claim guard). It costs
 * nothing when the copies race as scripted: the hold ends as soon as copy 2 is through; a copy
 * that fails waits for the queue's clock, which follows.
 */
export const GRADED_HOLD = { functionTimeoutSeconds: 10 } satisfies Omit<PhaseSetup, "guard">;

/**
 * secondCopyWhileHeld for a guard nobody here wrote. Copy 1 may never reach before-charge (the
 * guard threw, skipped or hangs), and copy 2 may wait for copy 1 instead of getting through:
 * each wait is bounded by the function's own clock instead of failing the run after 20 s.
 * Copy 1 is released before its hold runs out (a held copy gives up 0.5 s before its timeout),
 * and whatever happened is judged from the charges, with howNotRaced saying what did not.
 */
export async function secondCopyWhileHeldAtMost(lab: Workload, orderId: string, gapMs = 0) {
  const functionMs = lab.functionTimeoutMs;
  await lab.send({ orderId });
  const first = lab.at("before-charge", 1);
  // Handing a message over and a cold start come before the guard: twice the function's clock.
  const held = await reachedWithin(first, 2 * functionMs);
  if (held && gapMs > 0) await lab.pause(gapMs);
  await lab.send({ orderId });
  // While copy 1 is held, its clock runs: release it a second and a half before it would give up.
  await reachedWithin(lab.at("before-end", 2), held ? functionMs - 1_500 - gapMs : functionMs);
  await first.release();
}

/** True once the copy is there, false when it was not within `ms`. */
const reachedWithin = (hold: Hold, ms: number): Promise<boolean> =>
  hold.reached(ms).then(
    () => true,
    (err: unknown) => {
      if (err instanceof LabError) return false;
      throw err;
    },
  );
