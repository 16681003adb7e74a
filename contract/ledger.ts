// The charges ledger's items (docs/design.md §3): one per charge, what a payment provider would
// have on record. The worker writes them, the harness counts them.

export interface LedgerItem {
  /** A fresh id per charge; with the provider's idempotency key, "<PROVIDER_KEY>=<key>". */
  chargeId: string;
  /** PROVIDER_KEY's value for this charge (the orderId, or the messageId), when there is one. */
  idempotencyKey?: string;
  orderId: string;
  customerId: string | null;
  amount: number | null;
  messageId: string;
  requestId: string;
  attempt: number;
  chargedAt: string;
}
