import type { LedgerItem } from "../contract/ledger.js";
import type { Order } from "../contract/order.js";
import type { WorkerConfig } from "../contract/settings.js";
import { chargeFailureIfInjected, crashIfInjected } from "./faults.js";
import type { Invocation } from "./guards/guard.js";
import type { Log } from "./log.js";
import { Ledger } from "./store.js";
import { sleep } from "./time.js";

/**
 * How a charge is written down: in the ledger alone, or (lease) with its completion, fenced.
 * False when the fence refused it: nothing was recorded.
 */
export type RecordCharge = (item: LedgerItem) => Promise<boolean>;

/** Charges the order once. The ledger item is the payment; the log line reports it. */
export async function charge(
  order: Order,
  invocation: Invocation,
  config: WorkerConfig,
  record: RecordCharge,
  log: Log,
): Promise<boolean> {
  crashIfInjected(config, invocation);
  await sleep(config.workMs); // the article's WORK_MS: the slow part of a real payment call
  try {
    const injected = chargeFailureIfInjected(config, invocation);
    if (injected) throw injected;
    const item = Ledger.item(order, invocation);
    if (!(await record(item))) return false; // fenced: nothing was charged
    log("charge_applied", {
      amount: order.amount,
      customerId: order.customerId,
      chargeId: item.chargeId,
    });
    return true;
  } catch (err) {
    log("charge_failed", { error: (err as Error).message });
    throw err;
  }
}
