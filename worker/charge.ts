import type { WorkerConfig } from "../contract/settings.js";
import { chargeFailureIfInjected, crashIfInjected } from "./faults.js";
import type { Log } from "./log.js";
import type { Order } from "./order.js";
import { type Invocation, recordCharge } from "./store.js";
import { sleep } from "./time.js";

/** Charges the order once. The ledger item is the payment; the log line reports it. */
export async function charge(order: Order, invocation: Invocation, config: WorkerConfig, log: Log) {
  crashIfInjected(config, invocation);
  await sleep(config.workMs); // the article's WORK_MS: the slow part of a real payment call
  try {
    const injected = chargeFailureIfInjected(config, invocation);
    if (injected) throw injected;
    const chargeId = await recordCharge(config.ledgerTable, order, invocation);
    log("charge_applied", { amount: order.amount, customerId: order.customerId, chargeId });
  } catch (err) {
    log("charge_failed", { error: (err as Error).message });
    throw err;
  }
}
