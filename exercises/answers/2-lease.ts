// After hint 2: the claim is a lease. A copy that finds it held fails (SQS brings it back
// later) instead of skipping; a failed charge gives the lease back; a dead holder's lease runs
// out and a retry takes it over. Still wrong when the work outlives the lease.
import { randomUUID } from "node:crypto";
import { CLAIM_STATUS, defineGuard } from "sqs-idempotency-lab/guard";

export default defineGuard(async ({ order, invocation, config, claims, log, charge }) => {
  const owner = randomUUID(); // this copy, and only this copy, may complete or give back
  const taken = await claims.takeLease({
    orderId: order.orderId,
    status: CLAIM_STATUS.claimed,
    ...invocation,
    owner,
    leaseUntil: Date.now() + config.leaseMs,
    payloadHash: `${order.customerId}/${order.amount}`,
    claimedAt: new Date().toISOString(),
  });
  if (!taken.won) {
    if (taken.holder?.status === CLAIM_STATUS.completed) {
      log("claim_lost");
      log("skip_duplicate");
      return "skipped";
    }
    log("claim_busy", { heldBy: taken.holder?.messageId });
    return "failed"; // another copy is charging: look again after the visibility timeout
  }
  log("claim_won");
  try {
    await charge();
  } catch (err) {
    await claims.releaseLease(order.orderId, owner); // a retry may charge it
    log("claim_released");
    throw err;
  }
  await claims.completeLease(order.orderId, owner, invocation, config.recordTtlSeconds);
  return "charged";
});
