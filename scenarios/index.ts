// The catalogue (docs/design.md §6), in the order a workshop tells it.
import type { Scenario } from "../harness/scenario/scenario.js";
import batchRetry from "./batch-retry.js";
import chargeFailure from "./charge-failure.js";
import crashAfterCharge from "./crash-after-charge.js";
import crashAfterClaim from "./crash-after-claim.js";
import fifoDedup from "./fifo-dedup.js";
import guardMatrix from "./guard-matrix.js";
import guardOff from "./guard-off.js";
import guardOn from "./guard-on.js";
import lostAnswer from "./lost-answer.js";
import malformedBody from "./malformed-body.js";
import payloadMismatch from "./payload-mismatch.js";
import paymentTimeout from "./payment-timeout.js";
import poisonMessage from "./poison-message.js";
import providerKey from "./provider-key.js";
import racingCopies from "./racing-copies.js";
import recordExpiry from "./record-expiry.js";
import slowHolder from "./slow-holder.js";
import visibilityClock from "./visibility-clock.js";

export const SCENARIOS: Scenario[] = [
  guardOff,
  guardOn,
  malformedBody,
  racingCopies,
  crashAfterClaim,
  crashAfterCharge,
  chargeFailure,
  poisonMessage,
  payloadMismatch,
  slowHolder,
  batchRetry,
  fifoDedup,
  recordExpiry,
  providerKey,
  visibilityClock,
  lostAnswer,
  paymentTimeout,
  guardMatrix,
];

/** The original experiment's four, in the article's order; the rest go beyond it. */
export const ARTICLE_SCENARIOS = ["guard-off", "guard-on", "malformed-body", "racing-copies"];

/**
 * Where else duplicates come from, after the article's story ends: a batch retried whole, a
 * FIFO queue's deduplication, a record that expired, the provider's key, the queue's clock.
 */
export const BEYOND_ARTICLE = [
  "batch-retry",
  "fifo-dedup",
  "record-expiry",
  "provider-key",
  "visibility-clock",
];

/** When the answer is lost: DynamoDB's, retried by the SDK, and the payment's (issue 29). */
export const LOST_ANSWER_SCENARIOS = ["lost-answer", "payment-timeout"];

/** What goes wrong in the article's own setup: a crash, a failed charge, poison, a changed payload, a slow holder. */
export const FAILURE_SCENARIOS = SCENARIOS.map((s) => s.name).filter(
  (name) =>
    name !== "guard-matrix" &&
    !ARTICLE_SCENARIOS.includes(name) &&
    !BEYOND_ARTICLE.includes(name) &&
    !LOST_ANSWER_SCENARIOS.includes(name),
);

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
