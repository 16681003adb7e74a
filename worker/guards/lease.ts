import { createHash, randomUUID } from "node:crypto";
import type { Order } from "../order.js";
import { completeLease, isConditionFailure, readClaim, releaseLease, takeLease } from "../store.js";
import type { Guard } from "./guard.js";

/**
 * The claim, fixed. A claim is a lease with an owner: if its holder dies, the lease runs out
 * and a retry takes over. A copy that finds a live claim fails (SQS retries it later) instead
 * of acknowledging a charge that may never happen. A failed charge gives the claim back. A
 * "duplicate" that carries a different payload is refused, never charged, never skipped.
 */
export const lease: Guard = async ({ order, invocation, config, log, charge }) => {
  const table = config.claimsTable;
  const owner = randomUUID();
  const payloadHash = fingerprint(order);
  let previous: Awaited<ReturnType<typeof takeLease>>;
  try {
    previous = await takeLease(table, {
      orderId: order.orderId,
      status: "CLAIMED",
      ...invocation,
      owner,
      leaseUntil: Date.now() + config.leaseMs,
      payloadHash,
      claimedAt: new Date().toISOString(),
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const holder = await readClaim(table, order.orderId);
    // A claim without a fingerprint was written by another guard: nothing to compare.
    if (holder?.payloadHash && holder.payloadHash !== payloadHash) {
      log("payload_mismatch", {
        heldBy: holder.messageId,
        amount: order.amount,
        customerId: order.customerId,
      });
      return "failed";
    }
    if (holder?.status === "COMPLETED") {
      log("claim_lost", { heldBy: holder.messageId });
      log("skip_duplicate");
      return "skipped";
    }
    log("claim_busy", { heldBy: holder?.messageId, leaseUntil: holder?.leaseUntil });
    return "failed";
  }
  log("claim_won", previous ? { tookOverFrom: previous.messageId } : {});
  try {
    await charge();
  } catch (err) {
    await releaseLease(table, order.orderId, owner);
    log("claim_released");
    throw err;
  }
  await completeLease(table, order.orderId, owner, invocation);
  return "charged";
};

/** What must match for a copy to count as the same order: who pays, and how much. */
export function fingerprint(order: Order): string {
  return createHash("sha256")
    .update(JSON.stringify([order.customerId, order.amount]))
    .digest("hex")
    .slice(0, 16);
}
