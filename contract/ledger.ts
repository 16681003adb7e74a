// The charges ledger's items (docs/design.md §3): one per charge, what a payment provider would
// have on record. The worker writes them, the harness counts them.

export interface LedgerItem {
  chargeId: string;
  orderId: string;
  customerId: string | null;
  amount: number | null;
  messageId: string;
  requestId: string;
  attempt: number;
  chargedAt: string;
}
