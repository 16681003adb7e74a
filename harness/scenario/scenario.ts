// The shape of a scenario (design §6), in Jepsen's terms: the workload is the generator,
// the setup (guard, fault, pollers) the nemesis, the checks the checker. Kept apart so a
// scenario file reads as a story: what happens, and what must be true afterwards.
import { isDeepStrictEqual } from "node:util";
import type { Fault, GuardName, ParseMode } from "../../contract/settings.js";
import type { Claim } from "../../worker/store.js";
import type { OrderInput, SentMessage } from "../drive/send.js";
import type { WorkerEvent } from "../observe/events.js";
import type { ChargeSummary } from "../observe/insights.js";
import type { LedgerItem } from "../observe/observe.js";

export interface PhaseSetup {
  guard: GuardName;
  parseMode?: ParseMode;
  fault?: Fault;
  workMs?: number;
  raceWindowMs?: number;
  leaseMs?: number;
  /** 0: the event source mapping delivers; P > 0: P harness pollers do, to race for real. */
  pollers?: number;
}

/** What a workload can do: send copies, and wait for what it sent to finish. */
export interface Workload {
  send(order: OrderInput & { copies?: number; mangled?: boolean }): Promise<SentMessage[]>;
  sendBodyFile(file: string, copies?: number): Promise<SentMessage[]>;
  /** Waits until every message sent so far has ended: for workloads that happen in steps. */
  settle(): Promise<void>;
}

export interface IntendedOutcome {
  messages: number;
  charges: number;
  /** Charges whose orderId is the one the sender meant. */
  chargedUnderItsId: number;
  /** Its messages found in the dead-letter queue. */
  deadLettered: number;
  verdict: "exactly once" | "lost" | "duplicated" | "wrong key" | "dead-lettered";
}

export interface Observed {
  eventCounts: Record<string, number>;
  charges: ChargeSummary;
  chargesByOrder: Record<string, number>;
  /** Per order the sender meant: how many of its messages turned into charges. */
  intended: Record<string, IntendedOutcome>;
  claims: Claim[];
  ledger: number;
  dlq: number;
  maxConcurrency: number;
}

export interface PhaseFacts {
  sent: { messages: number; messageIds: string[]; orderIds: string[]; bodies: string[] };
  observed: Observed;
  events: WorkerEvent[];
  ledgerItems: LedgerItem[];
  /** MessageIds found in the dead-letter queue. */
  deadLettered: string[];
}

/** One cell of a matrix scenario: what a guard did against one failure mode, measured. */
export interface Cell {
  row: string;
  column: string;
  ok: boolean;
  /** "✓ exactly once", "✗ doubled 3", "✗ lost 1", … */
  text: string;
  charges: number;
  orders: number;
}

export interface Check {
  name: string;
  pass: boolean;
  expected: unknown;
  actual: unknown;
}

export interface Phase {
  name: string;
  setup: PhaseSetup;
  workload: (lab: Workload) => Promise<unknown>;
  checks: (facts: PhaseFacts) => Check[];
  /** For matrix scenarios: where this phase sits, and how to judge what it measured. */
  cell?: {
    row: string;
    column: string;
    judge: (facts: PhaseFacts) => Omit<Cell, "row" | "column">;
  };
  /** How long to wait for every message to end before reporting what is missing. */
  timeoutMs?: number;
}

export interface Scenario {
  name: string;
  title: string;
  /** What to look at and why, in a few sentences an instructor can read aloud. */
  story: string;
  phases: Phase[];
}

export const scenario = (definition: Scenario): Scenario => definition;
export const phase = (name: string, definition: Omit<Phase, "name">): Phase => ({
  name,
  ...definition,
});

export function equal(name: string, actual: unknown, expected: unknown): Check {
  return { name, pass: isDeepStrictEqual(actual, expected), expected, actual };
}

/** The claims table as "orderId/status" pairs, sorted by orderId, against what it should hold. */
export function claimsAre(name: string, observed: Observed, expected: string[]): Check {
  return equal(
    name,
    observed.claims.map((c) => `${c.orderId}/${c.status}`),
    expected,
  );
}

export function atLeast(name: string, actual: number, minimum: number): Check {
  return { name, pass: actual >= minimum, expected: `≥ ${minimum}`, actual };
}

export function greaterThan(name: string, actual: number, bound: number): Check {
  return { name, pass: actual > bound, expected: `> ${bound}`, actual };
}

export function oneOf(name: string, actual: unknown, allowed: readonly unknown[]): Check {
  return {
    name,
    pass: allowed.some((value) => isDeepStrictEqual(value, actual)),
    expected: `one of ${allowed.length} sent`,
    actual,
  };
}
