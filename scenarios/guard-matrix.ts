import type { GuardName } from "../contract/settings.js";
import { GUARDS } from "../contract/settings.js";
import {
  type FailureKind,
  type Failures,
  mismatchFailures,
  orderFailures,
  verdictOf,
} from "../harness/check/verdicts.js";
import type { PhaseFacts } from "../harness/scenario/scenario.js";
import {
  type Check,
  equal,
  type Phase,
  type PhaseSetup,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";
import { aLateCopy, TTL_SECONDS } from "./record-expiry.js";
import {
  HELD_BEFORE_CHARGE,
  SLOW_HOLDER_SETUP,
  secondCopyWhileHeld,
  secondCopyWhileWorking,
  whileTheFirstWasHeld,
} from "./slow-holder.js";

/**
 * A failure mode: what happens, and for each guard what the lab teaches it does: no failure
 * (every order charged exactly once), or the kinds of failure it shows (doubled, lost, …).
 */
interface FailureMode {
  name: string;
  setup: Omit<PhaseSetup, "guard">;
  workload: (lab: Workload) => Promise<unknown>;
  expect: Record<ColumnName, FailureKind[]>;
  failures?: (facts: PhaseFacts) => Failures;
  /** For races: the check that the copies overlapped as the row says (failpoints make them). */
  overlap?: (facts: PhaseFacts) => Check;
}

/**
 * One column per guard, and one more: no guard in the worker, but a payment provider that keeps
 * one charge per idempotency key, the orderId (see provider-key).
 */
const COLUMNS: { name: string; setup: Pick<PhaseSetup, "guard" | "providerKey"> }[] = [
  ...GUARDS.map((guard) => ({ name: guard, setup: { guard } })),
  { name: "off + provider key", setup: { guard: "off", providerKey: "orderId" } },
];
type ColumnName = GuardName | "off + provider key";
export const MATRIX_COLUMNS = COLUMNS.map((c) => c.name);

const every = (kinds: FailureKind[]) =>
  Object.fromEntries(COLUMNS.map((c) => [c.name, kinds])) as Record<ColumnName, FailureKind[]>;
const ONCE: FailureKind[] = [];

const MODES: FailureMode[] = [
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
];

function cellPhase(mode: FailureMode, column: (typeof COLUMNS)[number]): Phase {
  const failuresOf = mode.failures ?? orderFailures;
  const name = column.name;
  const expected = mode.expect[name as ColumnName];
  return phase(`${mode.name} × ${name}`, {
    setup: { ...mode.setup, ...column.setup },
    workload: mode.workload,
    cell: { row: mode.name, column: name, judge: (facts) => verdictOf(failuresOf(facts), facts) },
    checks: (facts) => [
      ...(mode.overlap ? [mode.overlap(facts)] : []),
      equal(
        expected.length === 0
          ? `${name} holds against ${mode.name}: no failure`
          : `${name} fails against ${mode.name} as the lab teaches: ${expected.join(", ")}`,
        Object.keys(failuresOf(facts)).sort(),
        [...expected].sort(),
      ),
    ],
  });
}

export default scenario({
  name: "guard-matrix",
  title: "Every guard against every failure mode, measured",
  story:
    "Each cell is one run: the failure mode of its row against the guard of its column, judged " +
    "from the charges the worker logged: ✓ every order charged exactly once under its own id; ✗ " +
    "doubled N (extra charges), lost N (orders never charged), wrong key N (charged as " +
    '"unparseable"), or a different payload skipped silently. One row no guard can fix: a ' +
    "malformed body reaches the guard with the wrong key already, so the fix is upstream (send " +
    "from a file) or strict parsing (see poison-message). Note the naive column: it passes the " +
    "duplicate row only because one poller delivered the copies one at a time, and fails as soon " +
    "as they race. The last column has no guard at all, only the provider's idempotency key: it " +
    "holds everywhere the lease does, because the key is checked where the charge is recorded. " +
    `And the last row: the lease and Powertools forget a completed order after RECORD_TTL_SECONDS ` +
    `(${TTL_SECONDS} s here), so a later copy is charged again; naive and claim never forget, ` +
    "in a table that only grows, and neither does the provider.",
  phases: MODES.flatMap((mode) => COLUMNS.map((column) => cellPhase(mode, column))),
});
