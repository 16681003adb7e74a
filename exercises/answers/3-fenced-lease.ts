// After hint 3: the lease, fenced. The charge and COMPLETED are one transaction that holds only
// while this copy still owns the lease, and the lease lasts as long as the invocation may run.
// A "duplicate" with another payload is refused. Compare with worker/guards/lease.ts.
import { randomUUID } from "node:crypto";
import {
  CLAIM_STATUS,
  defineGuard,
  isLeaseClaim,
  type LedgerItem,
  retryWhileBusy,
} from "sqs-idempotency-lab/guard";

export default defineGuard(async (input) => {
  const { order, invocation, config, claims, ledger, log, context, charge } = input;
  const owner = randomUUID();
  const payloadHash = `${order.customerId}/${order.amount}`;
  // Never shorter than this invocation may still run: read at each try, time passes between.
  const leaseUntil = () =>
    Date.now() + Math.max(config.leaseMs, context.getRemainingTimeInMillis());
  const take = () =>
    claims.takeLease({
      orderId: order.orderId,
      status: CLAIM_STATUS.claimed,
      ...invocation,
      owner,
      leaseUntil: leaseUntil(),
      payloadHash,
      claimedAt: new Date().toISOString(),
    });
  // Held by a copy that is still charging: a quick one is done in a moment, look again.
  const taken = await retryWhileBusy(
    take,
    (t) => !t.won && t.holder?.status === CLAIM_STATUS.claimed,
  );

  if (!taken.won) {
    const { holder } = taken;
    if (holder && isLeaseClaim(holder) && holder.payloadHash !== payloadHash) {
      log("payload_mismatch", { heldBy: holder.messageId });
      return "failed"; // same orderId, another payment: refused, never charged
    }
    if (holder?.status === CLAIM_STATUS.completed) {
      log("claim_lost");
      log("skip_duplicate");
      return "skipped";
    }
    log("claim_busy", { heldBy: holder?.messageId });
    return "failed";
  }
  log("claim_won");
  // The fence: the ledger item and COMPLETED together, only while this copy owns the lease.
  const fenced = (item: LedgerItem) =>
    claims.chargeAndCompleteLease(ledger, item, owner, invocation, config.recordTtlSeconds);
  let charged: boolean;
  try {
    charged = await charge(fenced);
  } catch (err) {
    await claims.releaseLease(order.orderId, owner);
    log("claim_released");
    throw err;
  }
  if (!charged) {
    log("lease_lost"); // another copy took over while this one worked: it charges, not us
    return "failed";
  }
  return "charged";
});
