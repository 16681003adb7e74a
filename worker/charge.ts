import type { LedgerItem } from "../contract/ledger.js";
import type { Order } from "../contract/order.js";
import type { WorkerConfig } from "../contract/settings.js";
import type { At } from "./failpoints.js";
import { chargeFailureIfInjected, crashIfInjected } from "./faults.js";
import type { Invocation } from "./invocation.js";
import { Ledger, type ProviderAnswer } from "./ledger.js";
import type { Log } from "./log.js";
import { sleep } from "./time.js";

/**
 * How a charge is written down: in the ledger alone, or (lease) with its completion, fenced.
 * "fenced" when the fence refused it: nothing was recorded.
 */
export type RecordCharge = (item: LedgerItem) => Promise<ProviderAnswer | "fenced">;

/** What a charge needs to know: whose order, which copy, how, and where to say so. */
export interface ChargeInput {
  order: Order;
  invocation: Invocation;
  config: WorkerConfig;
  log: Log;
  at: At;
  /** FAILPOINTS' payment rule: the timeout the worker gets after the charge was recorded. */
  paymentFault?: () => Error | undefined;
}

/**
 * Charges the order once. The ledger item is the payment; the log line reports it. False when
 * the fence refused the charge. With the provider's idempotency key, a key used before gets the
 * earlier charge back (charge_replayed), or, for another amount, a refusal.
 */
export async function charge(input: ChargeInput, record: RecordCharge): Promise<boolean> {
  const { config, invocation, at } = input;
  crashIfInjected(config, invocation);
  await sleep(config.workMs); // the article's WORK_MS: the slow part of a real payment call
  await at("before-charge");
  const answer = await pay(input, record);
  await at("after-charge");
  return answer !== "fenced"; // fenced: nothing was charged
}

/** The payment call itself: the ledger item, and the line that says what the provider did. */
async function pay(
  { order, invocation, config, log, paymentFault }: ChargeInput,
  record: RecordCharge,
): Promise<ProviderAnswer | "fenced"> {
  try {
    const injected = chargeFailureIfInjected(config, invocation);
    if (injected) throw injected;
    const item = Ledger.item(order, invocation, config.providerKey);
    const answer = await record(item);
    if (answer === "fenced") return answer;
    const charged = { amount: order.amount, customerId: order.customerId, chargeId: item.chargeId };
    if (answer === "refused") {
      log("payload_mismatch", { ...charged, heldBy: item.chargeId });
      throw new Error(`the provider refused key ${item.idempotencyKey}: used for another charge`);
    }
    log(answer === "replayed" ? "charge_replayed" : "charge_applied", charged);
    // The provider has the charge (the line above says so); the worker hears a timeout instead.
    const lost = paymentFault?.();
    if (lost) throw lost;
    return answer;
  } catch (err) {
    log("charge_failed", { error: (err as Error).message });
    throw err;
  }
}
