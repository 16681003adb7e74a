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

  test.each([
    ["an array", "[1,2]"],
    ["a string", '"ORDER-001"'],
    ["null", "null"],
    ["no orderId", '{"customerId":"C"}'],
    ["an empty orderId", '{"orderId":""}'],
    ["a numeric orderId", '{"orderId":3}'],
    ["an empty body", ""],
  ])("%s is unparseable", (_, body) => {
    expect(parseOrder(body)).toMatchObject({ ok: false, order: { orderId: UNPARSEABLE } });
  });

  test("missing optional fields become null, not undefined", () => {
    expect(parseOrder('{"orderId":"X"}')).toEqual({
      ok: true,
      order: { orderId: "X", customerId: null, amount: null },
    });
  });
});
