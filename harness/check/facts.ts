// What a phase's checks look at (the facts), and what they produce (checks, matrix cells).
import type { ClaimRecord as Claim } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import type { WorkerEvent } from "../observe/events.js";
import type { ChargeSummary } from "../observe/insights.js";
import type { Failures } from "./failures.js";

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
  sent: {
    /** Messages SQS accepted as new; a FIFO queue's dropped duplicates are not among them. */
    messages: number;
    /** SendMessage calls SQS accepted: messages, and the duplicates a FIFO queue dropped. */
    sends: number;
    messageIds: string[];
    orderIds: string[];
    bodies: string[];
  };
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
  /** Every order charged exactly once, and (a racing row) the race happened as scripted. */
  ok: boolean;
  /** What failed, by kind and how many: empty when every order was charged exactly once. */
  failures: Failures;
  charges: number;
  orders: number;
  /**
   * A graded column's racing rows only: how the run did not happen as scripted; the cell is
   * then not ✓ whatever was charged (a race that did not happen proves nothing).
   */
  notRaced?: NotRaced;
}

/**
 * never-held: copy 1 never reached its charge (before-charge) on its first delivery, so it could
 * not be held there; not-through: copy 2 did not get through the guard while copy 1 was held.
 */
export type NotRaced = "never-held" | "not-through";

export interface Check {
  /** Set on the checks other code acts on (the grader); the rest are told apart by name only. */
  id?: CheckId;
  name: string;
  pass: boolean;
  expected: unknown;
  actual: unknown;
}

/**
 * row-verdict: a matrix cell's failures are the ones expected; row-raced: its race happened as
 * scripted; messages-ended and charges-in-ledger: the invariants every phase is checked on.
 */
export type CheckId = "row-verdict" | "row-raced" | "messages-ended" | "charges-in-ledger";
