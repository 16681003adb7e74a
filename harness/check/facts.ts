// What a phase's checks look at (the facts), and what they produce (checks, matrix cells).
import type { ClaimRecord as Claim } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import type { WorkerEvent } from "../observe/events.js";
import type { ChargeSummary } from "../observe/insights.js";

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
  ok: boolean;
  /** "✓ exactly once", "✗ doubled 3", "✗ lost 1", … */
  text: string;
  charges: number;
  orders: number;
  /**
   * A graded column's racing rows only: the run did not happen as scripted (copy 1 never held
   * before its charge, or copy 2 not through the guard meanwhile), said in words; the cell is
   * still judged from the charges.
   */
  note?: string;
}

export interface Check {
  name: string;
  pass: boolean;
  expected: unknown;
  actual: unknown;
}
