import { describe, expect, test } from "vitest";
import { UNPARSEABLE } from "../../contract/order.js";
import { parseOrder } from "../../worker/order.js";

describe("parseOrder", () => {
  test("reads the article's body", () => {
    expect(
      parseOrder('{"orderId":"ORDER-003","customerId":"CUSTOMER-123","amount":150.00}'),
    ).toEqual({
      ok: true,
      order: { orderId: "ORDER-003", customerId: "CUSTOMER-123", amount: 150 },
    });
  });

  test("the shell-mangled body falls back to the unparseable key", () => {
    const result = parseOrder("{orderId:ORDER-001,customerId:CUSTOMER-123,amount:150.00}");
    expect(result.ok).toBe(false);
    expect(result.order).toEqual({ orderId: UNPARSEABLE, customerId: null, amount: null });
    expect(result.ok === false && result.error).toMatch(/not JSON/);
  });

  test("two different mangled orders collapse onto the same key", () => {
    const a = parseOrder("{orderId:ORDER-001,customerId:CUSTOMER-123,amount:150.00}");
    const b = parseOrder("{orderId:ORDER-002,customerId:CUSTOMER-123,amount:150.00}");
    expect(a.order.orderId).toBe(b.order.orderId);
  });

  const order = (fields: Record<string, unknown>) =>
    JSON.stringify({ orderId: "ORDER-001", customerId: "CUSTOMER-123", amount: 150, ...fields });

  test.each([
    ["an array", "[1,2]", "not a JSON object"],
    ["a string", '"ORDER-001"', "not a JSON object"],
    ["null", "null", "not a JSON object"],
    ["an empty body", "", "not JSON"],
    ["no orderId", order({ orderId: undefined }), "orderId must be a non-empty string"],
    ["an empty orderId", order({ orderId: "" }), "orderId must be a non-empty string"],
    ["a numeric orderId", order({ orderId: 3 }), "orderId must be a non-empty string"],
    ["an orderId over 256 bytes", order({ orderId: "é".repeat(129) }), "orderId is 258 bytes long"],
    ["no customerId", order({ customerId: undefined }), "customerId must be a non-empty string"],
    ["a numeric customerId", order({ customerId: 123 }), "customerId must be a non-empty string"],
    ["an amount as a string", order({ amount: "150.00" }), "amount must be a finite number"],
    ["a negative amount", order({ amount: -1 }), "amount must be a finite number, 0 or more"],
    [
      "an amount DynamoDB cannot store",
      '{"orderId":"O","customerId":"C","amount":1e308}',
      "at most 1000000",
    ],
    ["an amount past the bound", order({ amount: 1_000_000.01 }), "at most 1000000"],
    ["three decimals", order({ amount: 150.001 }), "at most two decimals"],
    ["a tiny fraction", order({ amount: 1e-7 }), "at most two decimals"],
    [
      "fields only on the prototype",
      '{"__proto__":{"orderId":"O","customerId":"C","amount":1}}',
      "orderId",
    ],
  ])("%s is not an order, and the error names the field", (_, body, error) => {
    const result = parseOrder(body);
    expect(result).toMatchObject({ ok: false, order: { orderId: UNPARSEABLE } });
    expect(result.ok === false && result.error).toContain(error);
  });

  test.each([
    ["no decimals", 150],
    ["two decimals", 0.29],
    ["zero", 0],
    ["the bound", 1_000_000],
  ])("an amount with %s is money", (_, amount) => {
    expect(parseOrder(order({ amount }))).toMatchObject({ ok: true, order: { amount } });
  });

  test("an orderId of exactly 256 bytes is accepted", () => {
    const orderId = "é".repeat(128);
    expect(parseOrder(order({ orderId }))).toMatchObject({ ok: true, order: { orderId } });
  });
});
