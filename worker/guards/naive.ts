import { CLAIM_STATUS } from "../../contract/claims.js";
import { sleep } from "../time.js";
import type { Guard } from "./guard.js";

/**
 * Read, then write: wrong on purpose. Two copies running at once both read "absent" before
 * either writes, and both charge. RACE_WINDOW_MS widens the gap so the race shows every time.
 */
export const naive: Guard = async ({ order, invocation, config, claims, log, at, charge }) => {
  await at("before-read");
  const found = await claims.read(order.orderId);
  await at("after-read");
  if (found) {
    log("skip_duplicate");
    return "skipped";
  }
  await sleep(config.raceWindowMs);
  await charge();
  await at("before-complete");
  const now = new Date().toISOString();
  await claims.put({
    orderId: order.orderId,
    status: CLAIM_STATUS.completed,
    ...invocation,
    claimedAt: now,
    completedMessageId: invocation.messageId,
    completedAt: now,
  });
  await at("after-complete");
  return "charged";
};
