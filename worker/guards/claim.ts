import { CLAIM_STATUS } from "../../contract/claims.js";
import { isConditionFailure } from "../store.js";
import type { Guard } from "./guard.js";

/**
 * The article's guard: a conditional PutItem is the check and the reservation in one step,
 * so exactly one copy wins. CLAIMED is a reservation, not a receipt: COMPLETED comes only
 * after the charge. Its weakness: a winner that dies leaves CLAIMED behind, and every retry
 * skips an order that was never charged.
 */
export const claim: Guard = async ({ order, invocation, claims, log, at, charge }) => {
  await at("before-claim");
  try {
    await claims.putIfAbsent({
      orderId: order.orderId,
      status: CLAIM_STATUS.claimed,
      ...invocation,
      claimedAt: new Date().toISOString(),
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    log("claim_lost");
    log("skip_duplicate");
    return "skipped";
  }
  await at("after-claim");
  log("claim_won");
  await charge();
  await at("before-complete");
  await claims.complete(order.orderId, invocation);
  await at("after-complete");
  return "charged";
};
