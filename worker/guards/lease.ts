import { createHash, randomUUID } from "node:crypto";
import { CLAIM_STATUS, type ClaimRecord, isLeaseClaim } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import type { Order } from "../../contract/order.js";
import { isConditionFailure, type LeaseTaken } from "../store.js";
import { retryWhileBusy } from "./busy.js";
import type { Guard } from "./guard.js";

/**
 * The claim, fixed. A claim is a lease with an owner: if its holder dies, the lease runs out
 * and a retry takes over. A copy that finds a live claim fails (SQS retries it later) instead
 * of acknowledging a charge that may never happen. A failed charge gives the claim back. A
 * "duplicate" that carries a different payload is refused, never charged, never skipped.
 *
 * A holder that is slow, not dead, must not charge after another copy took over. Two defences:
 * the lease lasts at least as long as this invocation may still run (as Powertools' INPROGRESS
 * record does), and the fence: the charge is recorded together with COMPLETED, in one
 * transaction, only while this copy still owns the lease. In the real world the fence is the
 * payment provider's idempotency key.
 */
export const lease: Guard = async (input) => {
  const { order, invocation, config, claims, ledger, log, at, context, charge } = input;
  const defences = config.leaseDefences;
  const owner = randomUUID();
  const payloadHash = fingerprint(order);
  // With both defences the lease never ends before this invocation must have: both read at each
  // try, since time passes between tries (npx lab explore found a lease that outlived it).
  const leaseUntil = () => {
    const lease = Date.now() + config.leaseMs;
    const deadline = Date.now() + context.getRemainingTimeInMillis();
    return defences === "both" ? Math.max(lease, deadline) : lease;
  };
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
  // A record without a fingerprint was written by another guard: nothing to compare.
  const otherPayload = (holder: ClaimRecord | undefined) =>
    holder !== undefined && isLeaseClaim(holder) && holder.payloadHash !== payloadHash;
  // Held by a copy that is still charging this same order: worth a second look (see busy.ts).
  const stillCharging = (t: LeaseTaken) =>
    !t.won && t.holder?.status === CLAIM_STATUS.claimed && !otherPayload(t.holder);
  const completedBy = async (owner: string) => {
    const record = await claims.read(order.orderId);
    return (
      record?.status === CLAIM_STATUS.completed && isLeaseClaim(record) && record.owner === owner
    );
  };
  await at("before-claim");
  const taken = await retryWhileBusy(take, stillCharging);

  if (!taken.won) {
    const { holder } = taken;
    if (holder && otherPayload(holder)) {
      log("payload_mismatch", {
        heldBy: holder.messageId,
        amount: order.amount,
        customerId: order.customerId,
      });
      return "failed";
    }
    if (holder?.status === CLAIM_STATUS.completed) {
      log("claim_lost", { heldBy: holder.messageId });
      log("skip_duplicate");
      return "skipped";
    }
    const leaseUntil = holder && isLeaseClaim(holder) ? holder.leaseUntil : undefined;
    log("claim_busy", { heldBy: holder?.messageId, leaseUntil });
    return "failed";
  }

  await at("after-claim");
  const { previous, ownClaim } = taken;
  const took = previous ? { tookOverFrom: previous.messageId, from: previous.status } : {};
  log("claim_won", ownClaim ? { ownClaim } : took);
  // The fence: the ledger item and COMPLETED in one transaction, only while this copy owns the lease.
  const ttl = config.recordTtlSeconds;
  const fenced = (item: LedgerItem) =>
    claims.chargeAndCompleteLease(ledger, item, owner, invocation, ttl);
  let charged: boolean;
  try {
    charged = await charge(defences === "none" ? undefined : fenced);
  } catch (err) {
    try {
      await claims.releaseLease(order.orderId, owner);
    } catch (refused) {
      // No longer this copy's CLAIMED. COMPLETED by it means the fence recorded the charge
      // (the charge and COMPLETED are one transaction) before its answer was lost: charged.
      if (isConditionFailure(refused) && (await completedBy(owner))) return "charged";
      throw refused;
    }
    log("claim_released");
    throw err;
  }
  if (!charged) {
    // Another copy took the lease over while this one worked: it charges, this one must not.
    const holder = await claims.read(order.orderId);
    log("lease_lost", { takenBy: holder?.messageId });
    return "failed";
  }
  // Unfenced, the charge is already made; if the lease was taken over, this fails too late.
  if (defences === "none") {
    await at("before-complete");
    await claims.completeLease(order.orderId, owner, invocation, ttl);
    await at("after-complete");
  }
  return "charged";
};

/** What must match for a copy to count as the same order: who pays, and how much. */
export function fingerprint(order: Order): string {
  return createHash("sha256")
    .update(JSON.stringify([order.customerId, order.amount]))
    .digest("hex")
    .slice(0, 16);
}
