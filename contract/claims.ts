// The claims table's items (docs/design.md §3): one per orderId, the guard's memory. The worker
// writes them, the harness reads them back. Shaped like Powertools' IdempotencyRecord: a key,
// a status, and what each guard needs on top (the lease's owner, expiry and payload hash).

/** CLAIMED is a reservation (a copy is charging); COMPLETED a receipt (the order was charged). */
export const CLAIM_STATUS = { claimed: "CLAIMED", completed: "COMPLETED" } as const;
export type ClaimStatus = (typeof CLAIM_STATUS)[keyof typeof CLAIM_STATUS];

/** What every guard writes: the order, its status, and the copy that claimed it. */
interface ClaimedBy {
  orderId: string;
  status: ClaimStatus;
  messageId: string;
  requestId: string;
  claimedAt: string;
  /** Set with COMPLETED: the copy that finished the order, and when. */
  completedMessageId?: string;
  completedAt?: string;
}

/** The claim guard's: put CLAIMED if absent; the winner sets COMPLETED after it charged. */
export interface ConditionalClaim extends ClaimedBy {}

/** naive's: one unconditional put, after the charge, COMPLETED from the start. */
export interface NaiveClaim extends ClaimedBy {
  status: typeof CLAIM_STATUS.completed;
  completedMessageId: string;
  completedAt: string;
}

/** The lease guard's: a claim with an owner, an expiry while CLAIMED, and the order's fingerprint. */
export interface LeaseClaim extends ClaimedBy {
  /** A fresh id per copy: only the copy holding the lease may complete or release it. */
  owner: string;
  /** Epoch ms after which another copy may take over; removed when the order completes. */
  leaseUntil?: number;
  /** Who pays and how much, hashed: a "duplicate" with another payload is refused. */
  payloadHash: string;
  /**
   * Set with COMPLETED, in epoch seconds (the table's TTL attribute): after it, the guard has
   * forgotten the order and a copy is charged as new (RECORD_TTL_SECONDS).
   */
  expiresAt?: number;
}

/** Any item of the claims table, whichever guard wrote it. */
export type ClaimRecord = ConditionalClaim | NaiveClaim | LeaseClaim;

/** Only the lease guard's items carry a fingerprint. */
export const isLeaseClaim = (record: ClaimRecord): record is LeaseClaim => "payloadHash" in record;
