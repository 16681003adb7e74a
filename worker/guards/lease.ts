import { createHash, randomUUID } from "node:crypto";
import { CLAIM_STATUS, isLeaseClaim, type LeaseClaim } from "../../contract/claims.js";
import type { Order } from "../../contract/order.js";
import { isConditionFailure } from "../store.js";
import type { Guard } from "./guard.js";

/**
 * The claim, fixed. A claim is a lease with an owner: if its holder dies, the lease runs out
 * and a retry takes over. A copy that finds a live claim fails (SQS retries it later) instead
 * of acknowledging a charge that may never happen. A failed charge gives the claim back. A
 * "duplicate" that carries a different payload is refused, never charged, never skipped.
 */
export const lease: Guard = async ({ order, invocation, config, claims, log, charge }) => {
  const owner = randomUUID();
  const payloadHash = fingerprint(order);
  let previous: LeaseClaim | undefined;
  try {
    previous = await claims.takeLease({
      orderId: order.orderId,
      status: CLAIM_STATUS.claimed,
      ...invocation,
      owner,
      leaseUntil: Date.now() + config.leaseMs,
      payloadHash,
      claimedAt: new Date().toISOString(),
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const holder = await claims.read(order.orderId);
    // A record without a fingerprint was written by another guard: nothing to compare.
    if (holder && isLeaseClaim(holder) && holder.payloadHash !== payloadHash) {
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
  log("claim_won", previous ? { tookOverFrom: previous.messageId } : {});
  try {
    await charge();
  } catch (err) {
    await claims.releaseLease(order.orderId, owner);
    log("claim_released");
    throw err;
  }
  await claims.completeLease(order.orderId, owner, invocation);
  return "charged";
};

/** What must match for a copy to count as the same order: who pays, and how much. */
export function fingerprint(order: Order): string {
  return createHash("sha256")
    .update(JSON.stringify([order.customerId, order.amount]))
    .digest("hex")
    .slice(0, 16);
}
