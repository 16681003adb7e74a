import type { Order } from "../contract/order.js";
import type { WorkerConfig } from "../contract/settings.js";
import { chargeFailureIfInjected, crashIfInjected } from "./faults.js";
import type { Invocation } from "./guards/guard.js";
import type { Log } from "./log.js";
import type { Ledger } from "./store.js";
import { sleep } from "./time.js";

/** Charges the order once. The ledger item is the payment; the log line reports it. */
export async function charge(
  order: Order,
  invocation: Invocation,
  config: WorkerConfig,
  ledger: Ledger,
  log: Log,
) {
  crashIfInjected(config, invocation);
  await sleep(config.workMs); // the article's WORK_MS: the slow part of a real payment call
  try {
    const injected = chargeFailureIfInjected(config, invocation);
    if (injected) throw injected;
    const chargeId = await ledger.record(order, invocation);
    log("charge_applied", { amount: order.amount, customerId: order.customerId, chargeId });
  } catch (err) {
    log("charge_failed", { error: (err as Error).message });
    throw err;
  }
}
