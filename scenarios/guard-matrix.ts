import type { GuardName } from "../contract/settings.js";
import { GUARDS } from "../contract/settings.js";
import { judgeMismatch, judgeOrders, type Verdict } from "../harness/check/verdicts.js";
import type { PhaseFacts } from "../harness/scenario/scenario.js";
import {
  atLeast,
  equal,
  type Phase,
  type PhaseSetup,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

/** A failure mode: what happens, and for each guard whether the lab teaches that it holds. */
interface FailureMode {
  name: string;
  setup: Omit<PhaseSetup, "guard">;
  workload: (lab: Workload) => Promise<unknown>;
  holds: Record<GuardName, boolean>;
  judge?: (facts: PhaseFacts) => Verdict;
  /** For races: a cell where nothing overlapped proves nothing. */
  mustOverlap?: boolean;
}

const every = (value: boolean) =>
  Object.fromEntries(GUARDS.map((g) => [g, value])) as Record<GuardName, boolean>;

const MODES: FailureMode[] = [
  {
    name: "duplicate copies",
    setup: { workMs: 100, pollers: 1 }, // one poller: the copies arrive one after another
    workload: (lab) => lab.send({ orderId: "ORDER-101", copies: 4 }),
    holds: { ...every(true), off: false },
  },
  {
    name: "racing copies",
    setup: { workMs: 300, raceWindowMs: 300, pollers: 5 },
    workload: (lab) => lab.send({ orderId: "ORDER-102", copies: 10 }),
    holds: { ...every(true), off: false, naive: false },
    mustOverlap: true,
  },
  {
    name: "malformed body",
    setup: { workMs: 100 },
    workload: async (lab) => {
      await lab.send({ orderId: "ORDER-103", mangled: true });
      await lab.settle();
      await lab.send({ orderId: "ORDER-104", mangled: true });
    },
    holds: every(false), // no guard can: the key it is given is already wrong
  },
  {
    name: "crash after claim",
    setup: { workMs: 100, fault: "crash-after-claim", leaseMs: 2_000 },
    workload: (lab) => lab.send({ orderId: "ORDER-105" }),
    holds: { ...every(true), claim: false },
  },
  {
    name: "charge failure",
    setup: { workMs: 100, fault: "fail-charge-once" },
    workload: (lab) => lab.send({ orderId: "ORDER-106" }),
    holds: { ...every(true), claim: false },
  },
  {
    name: "payload mismatch",
    setup: { workMs: 100 },
    workload: async (lab) => {
      await lab.send({ orderId: "ORDER-107", amount: 150 });
      await lab.settle();
      await lab.send({ orderId: "ORDER-107", amount: 999 });
    },
    holds: { ...every(false), lease: true, powertools: true },
    judge: judgeMismatch,
  },
];

function cellPhase(mode: FailureMode, guard: GuardName): Phase {
  const judge = mode.judge ?? judgeOrders;
  const expected = mode.holds[guard];
  return phase(`${mode.name} × ${guard}`, {
    setup: { ...mode.setup, guard },
    workload: mode.workload,
    cell: { row: mode.name, column: guard, judge },
    checks: (facts) => [
      equal(
        expected
          ? `${guard} holds against ${mode.name}`
          : `${guard} fails against ${mode.name}, as the lab teaches`,
        judge(facts).ok,
        expected,
      ),
      ...(mode.mustOverlap
        ? [atLeast("copies really overlapped (maxConcurrency)", facts.observed.maxConcurrency, 2)]
        : []),
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
    "as they race.",
  phases: MODES.flatMap((mode) => GUARDS.map((guard) => cellPhase(mode, guard))),
});
