import type { LedgerItem } from "../contract/ledger.js";
import type { Order } from "../contract/order.js";
import type { WorkerConfig } from "../contract/settings.js";
import type { At } from "./failpoints.js";
import { chargeFailureIfInjected, crashIfInjected } from "./faults.js";
import { type Invocation, thrown } from "./invocation.js";
import { Ledger, type ProviderAnswer } from "./ledger.js";
import type { Log } from "./log.js";
import { sleep } from "./time.js";

/**
 * How a charge is written down: in the ledger alone, or (lease) with its completion, fenced.
 * "fenced" when the fence refused it: nothing was recorded. One that wrote another item than
 * the one it was handed says which (`chargeId`), so charge_applied names what the ledger holds.
 */
export type RecordCharge = (item: LedgerItem) => Promise<ProviderAnswer | "fenced" | Recorded>;

/** A charge recorded under a chargeId of the guard's own. */
export interface Recorded {
  answer: ProviderAnswer;
  chargeId: string;
}

/**
 * How a guard charges (`charge({ idempotencyKey: order.orderId })`): `record` writes the charge
 * down (the ledger by default), `idempotencyKey` is the payment provider's key for it (the
 * Idempotency-Key header a payment API takes): one charge per key, and a second call with the
 * key gets the first charge back. Without one, PROVIDER_KEY decides.
 */
export interface ChargeOptions {
  record?: RecordCharge;
  idempotencyKey?: string;
}

/** A guard's `charge(record)` and `charge({ record, idempotencyKey })`, read as one. */
export const chargeOptions = (how?: RecordCharge | ChargeOptions): ChargeOptions =>
  typeof how === "function" ? { record: how } : (how ?? {});

/** What a charge needs to know: whose order, which copy, how, and where to say so. */
export interface ChargeInput {
  order: Order;
  invocation: Invocation;
  config: WorkerConfig;
  /** This copy's ledger: what `record` wrote through it is what the charge's line names. */
  ledger: Ledger;
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
export async function charge(
  input: ChargeInput,
  how: ChargeOptions & { record: RecordCharge },
): Promise<boolean> {
  const { config, invocation, at } = input;
  crashIfInjected(config, invocation);
  await sleep(config.workMs); // the article's WORK_MS: the slow part of a real payment call
  await at("before-charge");
  const answer = await pay(input, how);
  await at("after-charge");
  return answer !== "fenced"; // fenced: nothing was charged
}

/** The payment call itself: the ledger item, and the line that says what the provider did. */
async function pay(
  { order, invocation, config, ledger, log, paymentFault }: ChargeInput,
  { record, idempotencyKey }: ChargeOptions & { record: RecordCharge },
): Promise<ProviderAnswer | "fenced"> {
  try {
    const injected = chargeFailureIfInjected(config, invocation);
    if (injected) throw injected;
    const item = Ledger.item(order, invocation, config.providerKey, idempotencyKey);
    const writesBefore = ledger.writes();
    const recorded = await record(item);
    if (recorded === "fenced") return recorded;
    const { answer, chargeId, key } = held(item, recorded, ledger.writtenSince(writesBefore));
    const charged = { amount: order.amount, customerId: order.customerId, chargeId };
    if (answer === "refused") {
      log("payload_mismatch", { ...charged, heldBy: chargeId });
      throw new Error(`the provider refused key ${key}: used for another charge`);
    }
    log(answer === "replayed" ? "charge_replayed" : "charge_applied", charged);
    // The provider has the charge (the line above says so); the worker hears a timeout instead.
    const lost = paymentFault?.();
    if (lost) throw lost;
    return answer;
  } catch (err) {
    log("charge_failed", { error: thrown(err).error });
    throw err;
  }
}

/**
 * What the ledger holds for this charge, whatever `record` did: the chargeId it said it wrote,
 * else the last item it wrote through this copy's ledger (a guard may write its own, with a key
 * it chose), else the item it was handed. `key`: the idempotency key a refusal names.
 */
export function held(
  handed: LedgerItem,
  recorded: ProviderAnswer | Recorded,
  written: LedgerItem | undefined,
): { answer: ProviderAnswer; chargeId: string; key: string } {
  const item = written ?? handed;
  if (typeof recorded !== "string") {
    const { answer, chargeId } = recorded;
    const key = chargeId === item.chargeId ? (item.idempotencyKey ?? chargeId) : chargeId;
    return { answer, chargeId, key };
  }
  return { answer: recorded, chargeId: item.chargeId, key: item.idempotencyKey ?? item.chargeId };
}
