// The charges ledger's items (docs/design.md §3): one per charge, what a payment provider would
// have on record. The worker writes them, the harness counts them.

export interface LedgerItem {
  /**
   * A fresh id per charge; with the provider's idempotency key, "<PROVIDER_KEY>=<key>", or
   * "key=<key>" for a key the guard chose (charge({ idempotencyKey })).
   */
  chargeId: string;
  /** The provider's idempotency key for this charge (PROVIDER_KEY's or the guard's), if any. */
  idempotencyKey?: string;
  orderId: string;
  customerId: string | null;
  amount: number | null;
  messageId: string;
  requestId: string;
  attempt: number;
  chargedAt: string;
}
