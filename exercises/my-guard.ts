// Your guard. Grade it:   npx lab grade exercises/my-guard.ts
// Try it in the lab:      npx lab guard exercises/my-guard.ts
//
// It starts as the article's first idea: look the order up, and charge it only if it is not
// there yet. Every failure mode the lab knows is tried on it; read the ✗ rows, then the hints
// (exercises/hints.md), one at a time.
import { CLAIM_STATUS, defineGuard } from "sqs-idempotency-lab/guard";

export default defineGuard(async ({ order, invocation, claims, log, charge }) => {
  // Has any copy of this order been here before?
  const existing = await claims.read(order.orderId);
  if (existing) {
    log("skip_duplicate");
    return "skipped"; // a duplicate: SQS deletes it, nothing is charged
  }

  await charge(); // the payment: every call charges once more

  // Write it down, so the next copy finds it.
  const now = new Date().toISOString();
  await claims.put({
    orderId: order.orderId,
    status: CLAIM_STATUS.completed,
    ...invocation,
    claimedAt: now,
    completedMessageId: invocation.messageId,
    completedAt: now,
  });
  return "charged";
});
