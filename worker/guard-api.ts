// The guard API (docs/design.md §4, "Guard files"): everything a guard of your own may use, from
// one module. The lab's own guards (worker/guards/*) are written against the same parts.
//
//   import { defineGuard } from "sqs-idempotency-lab/guard";
//   export default defineGuard(async ({ order, claims, charge, log }) => { ... });
import type { Guard } from "./guards/guard.js";

export type { ConditionalClaim, LeaseClaim, NaiveClaim } from "../contract/claims.js";
export {
  CLAIM_STATUS,
  type ClaimRecord,
  type ClaimStatus,
  isLeaseClaim,
} from "../contract/claims.js";
export type { FailpointName } from "../contract/failpoints.js";
export type { LedgerItem } from "../contract/ledger.js";
export type { Order } from "../contract/order.js";
export type { WorkerConfig } from "../contract/settings.js";
export type { ChargeOptions, RecordCharge, Recorded } from "./charge.js";
export { BUSY_WAIT, retryWhileBusy } from "./guards/busy.js";
export type { Guard, GuardInput, Invocation, Outcome } from "./guards/guard.js";
export { GUARD_KEY, Ledger, type ProviderAnswer } from "./ledger.js";
export type { Log } from "./log.js";
export { ClaimsTable, isConditionFailure, type LeaseTaken } from "./store.js";

/**
 * Your guard, typed: the function it wraps gets one copy of an order and says what became of it,
 * "charged", "skipped" (a duplicate) or "failed" (SQS delivers the message again later).
 */
export function defineGuard(guard: Guard): Guard {
  return guard;
}
