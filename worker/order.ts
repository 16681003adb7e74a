// Turning an SQS message body into an order. The lenient fallback is the article's: when the
// body is not the JSON we expect, the worker still runs, under the key "unparseable".

import { type Order, UNPARSEABLE } from "../contract/order.js";

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
  const { orderId, customerId, amount } = value as Record<string, unknown>;
  if (typeof orderId !== "string" || orderId === "") {
    return unparseable("body has no orderId string");
  }
  return {
    ok: true,
    order: {
      orderId,
      customerId: typeof customerId === "string" ? customerId : null,
      amount: typeof amount === "number" ? amount : null,
    },
  };
}

function unparseable(error: string): ParseResult {
  return { ok: false, error, order: { orderId: UNPARSEABLE, customerId: null, amount: null } };
}
