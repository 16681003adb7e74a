// After hint 1: the check and the reservation in one conditional write (the article's guard).
// Racing copies now charge once; a winner that dies or fails leaves CLAIMED behind for ever.
import { CLAIM_STATUS, defineGuard, isConditionFailure } from "sqs-idempotency-lab/guard";

export default defineGuard(async ({ order, invocation, claims, log, charge }) => {
  try {
    // Fails if any record holds this orderId: exactly one copy gets past this line.
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
  log("claim_won");
  await charge();
  await claims.complete(order.orderId, invocation);
  return "charged";
});
