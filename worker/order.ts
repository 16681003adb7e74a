// Turning an SQS message body into an order, and the one definition of a valid order. The
// lenient fallback is the article's: when the body is not a valid order, the worker still runs,
// under the key "unparseable". Strict mode refuses it instead (and SQS dead-letters it).

import { type Order, UNPARSEABLE } from "../contract/order.js";

/**
 * orderId and customerId are at most 256 bytes of UTF-8: DynamoDB allows 2048 in a partition
 * key, and no real order reference needs more than a few dozen; a short key keeps every log
 * line short too. An amount is money: at most two decimals, and at most a million.
 */
export const ORDER_LIMITS = { idBytes: 256, maxAmount: 1_000_000 } as const;

export type ParseResult = { ok: true; order: Order } | { ok: false; order: Order; error: string };

export function parseOrder(body: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return unparseable(`body is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return unparseable("body is not a JSON object");
  }
  const field = (name: string) =>
    Object.hasOwn(value, name) ? Reflect.get(value, name) : undefined;
  const orderId = field("orderId");
  const customerId = field("customerId");
  const amount = field("amount");
  const problem =
    idProblem("orderId", orderId) ?? idProblem("customerId", customerId) ?? amountProblem(amount);
  if (problem) return unparseable(problem);
  return { ok: true, order: { orderId, customerId, amount } as Order };
}

function idProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return `${name} must be a non-empty string`;
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > ORDER_LIMITS.idBytes) {
    return `${name} is ${bytes} bytes long; at most ${ORDER_LIMITS.idBytes} are allowed`;
  }
  return undefined;
}

function amountProblem(value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    return "amount must be a finite number, 0 or more";
  }
  if (value > ORDER_LIMITS.maxAmount) return `amount must be at most ${ORDER_LIMITS.maxAmount}`;
  // The shortest decimal that reads back as this number: 150 for 150.00, 0.29 for 0.29.
  if (!/^\d+(\.\d{1,2})?$/.test(String(value))) return "amount must have at most two decimals";
  return undefined;
}

function unparseable(error: string): ParseResult {
  return { ok: false, error, order: { orderId: UNPARSEABLE, customerId: null, amount: null } };
}
