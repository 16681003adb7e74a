// The worker's log line types (docs/design.md §4): the worker writes them, the harness reads
// them back and counts them.
import type { FailpointAction } from "./failpoints.js";

export const EVENT_TYPES = [
  "process_start",
  "parse_failed",
  "claim_won",
  "claim_lost",
  "claim_busy",
  "claim_released",
  "skip_duplicate",
  "payload_mismatch",
  "charge_applied",
  "charge_replayed",
  "charge_failed",
  "lease_lost",
  "batch_failed",
  "failpoint",
  "failpoint_released",
  "fault",
  "process_end",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What each line carries besides its head (EventHead), by type: the log schema of design.md §4
 * as a type. The worker's log() takes exactly these; the harness reads them back as WorkerEvent.
 */
export interface EventDetails {
  process_start: { attempt: number };
  parse_failed: { error: string; body: string; bodyLength: number; bodySha256: string };
  /** ownClaim: the record this copy's own lost write left (a lost answer, then the SDK's retry). */
  claim_won: { tookOverFrom?: string; from?: string; ownClaim?: true };
  claim_lost: { heldBy?: string };
  claim_busy: { heldBy?: string; leaseUntil?: number };
  claim_released: Empty;
  skip_duplicate: Empty;
  payload_mismatch: Partial<ChargeDetails> & { heldBy?: string };
  charge_applied: ChargeDetails;
  charge_replayed: ChargeDetails;
  charge_failed: { error: string };
  lease_lost: { takenBy?: string };
  batch_failed: { failed: number; records: number };
  /**
   * A named point's rule acted (or, in the explorer's schedules, the fault it chose there):
   * `action` is the rule's action, so nothing reads it back out of the rule's text.
   */
  failpoint: {
    point: string;
    rule: string;
    action: FailpointAction["kind"];
    holdId?: string;
    /** The explorer's: the copy died at its deadline here, not at a crash rule. */
    timedOut?: true;
  };
  failpoint_released: { point: string; heldMs: number };
  /**
   * A boundary fault acted (contract/failpoints.ts): on a DynamoDB call, its operation, the
   * tables it named and the SDK's attempt header ("attempt=1; max=3"); or on the payment.
   */
  fault:
    | { point: "dynamo"; rule: string; operation: string; tables: string[]; sdkAttempt: string }
    | { point: "payment"; rule: string };
  process_end: ProcessEnd;
}

type Empty = Record<string, never>;

/** A charge as its line says it: the ledger item's chargeId, for whom and how much. */
export interface ChargeDetails {
  amount: number | null;
  customerId: string | null;
  chargeId: string;
}

/** "failed" hands the record back to SQS for a retry. */
export type Outcome = "charged" | "skipped" | "failed";

export type ProcessEnd = {
  outcome: Outcome;
  durationMs: number;
  /** The DynamoDB calls this record cost (an SDK middleware counts them). */
  dynamoCalls: number;
  /** The SDK attempts those calls took, retries included (counted inside the retry loop). */
  dynamoAttempts: number;
} & ({ errorKind?: undefined } | GuardFailure);

/** Why a record failed without an outcome from its guard, with the words for a person. */
export type GuardFailure =
  /** The guard returned a value that is not an outcome: shown as JSON, cut at 80 characters. */
  | { errorKind: "returned"; returned: string; error: string }
  /** threw: the guard's own error; injected: a fault the lab made (FAULT, a failpoint). */
  | { errorKind: "threw" | "injected"; error: string; at?: string };

/** What every line starts with: who wrote it, about which order, when. */
export interface EventHead {
  orderId: string;
  messageId: string;
  requestId: string;
  guard: string;
  /** ISO 8601, as the worker's clock said it. */
  ts: string;
}

/** One line of the worker's log, read back: one variant per type. */
export type WorkerEvent = {
  [T in EventType]: EventHead & { type: T } & EventDetails[T];
}[EventType];

/** A line of this type (for filters: events.filter(isEvent("charge_applied"))). */
export const isEvent =
  <T extends EventType>(type: T) =>
  (e: WorkerEvent): e is Extract<WorkerEvent, { type: T }> =>
    e.type === type;
