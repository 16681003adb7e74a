import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { mangleLikePowerShell, orderBody, readBodyFile } from "../../harness/drive/send.js";

describe("the producer's bodies", () => {
  test("the article's body, byte for byte", () => {
    expect(orderBody({ orderId: "ORDER-003" })).toBe(
      '{"orderId":"ORDER-003","customerId":"CUSTOMER-123","amount":150.00}',
    );
    expect(orderBody({ orderId: "O", customerId: "C", amount: 9.5 })).toBe(
      '{"orderId":"O","customerId":"C","amount":9.50}',
    );
  });

  test("what inline PowerShell quoting delivers", () => {
    expect(mangleLikePowerShell(orderBody({ orderId: "ORDER-001" }))).toBe(
      "{orderId:ORDER-001,customerId:CUSTOMER-123,amount:150.00}",
    );
  });

  test("a body file is sent as written, and remembers the order it names", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "lab-test-")), "body.json");
    writeFileSync(file, `${orderBody({ orderId: "ORDER-001" })}\n`);
    expect(readBodyFile(file)).toEqual({
      body: orderBody({ orderId: "ORDER-001" }),
      intendedOrderId: "ORDER-001",
    });
  });

  test("a missing body file is a one-line usage error", () => {
    expect(() => readBodyFile("/nonexistent/body.json")).toThrow(
      /cannot read body file \/nonexistent\/body.json: ENOENT/,
    );
  });
});
