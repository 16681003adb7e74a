import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { UsageError } from "../../harness/common/errors.js";
import { writtenByPowerShell51 } from "../../harness/drive/body-file.js";
import { mangleLikePowerShell, orderBody, readBodyFile } from "../../harness/drive/order-body.js";
import { tempFolder } from "../temp-folder.js";

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
    const file = path.join(tempFolder("lab-test-"), "body.json");
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

describe("body file encodings (Windows PowerShell 5.1 writes UTF-16 LE with a BOM)", () => {
  const order = orderBody({ orderId: "ORDER-007" });
  const written = (bytes: Uint8Array) => {
    const file = path.join(tempFolder("lab-test-"), "body.json");
    writeFileSync(file, bytes);
    return file;
  };
  const bom16le = Buffer.from([0xff, 0xfe]);
  const bom16be = Buffer.from([0xfe, 0xff]);
  const utf16be = (text: string) => Buffer.from(text, "utf16le").swap16();

  test.each([
    ["UTF-8 without a BOM", Buffer.from(`${order}\n`)],
    ["UTF-8 with a BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(order)])],
    ["UTF-16 LE with a BOM, as PowerShell 5.1's > writes it", writtenByPowerShell51(order)],
    ["UTF-16 BE with a BOM", Buffer.concat([bom16be, utf16be(`${order}\r\n`)])],
  ])("%s: the body as written, under its own orderId", (_, bytes) => {
    expect(readBodyFile(written(bytes))).toEqual({ body: order, intendedOrderId: "ORDER-007" });
  });

  test("PowerShell 5.1's bytes are what it writes: FF FE, then 7B 00 for {", () => {
    expect([...writtenByPowerShell51("{}")]).toEqual([
      0xff, 0xfe, 0x7b, 0, 0x7d, 0, 0x0d, 0, 0x0a, 0,
    ]);
  });

  test("text beyond ASCII survives UTF-16", () => {
    const body = orderBody({ orderId: "PEDIDO-Ç-€" });
    expect(readBodyFile(written(writtenByPowerShell51(body))).intendedOrderId).toBe("PEDIDO-Ç-€");
  });

  test.each([
    [
      "UTF-32 LE with a BOM",
      Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from("{\0\0\0", "latin1")]),
      "is UTF-32; save it as UTF-8 (PowerShell: (Get-Content <file>) | Set-Content -Encoding utf8 <file>)",
    ],
    [
      "UTF-32 BE with a BOM",
      Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x7b]),
      "is UTF-32; save it as UTF-8",
    ],
    [
      "UTF-16 LE without a BOM",
      Buffer.from(order, "utf16le"),
      "is UTF-16 without a byte-order mark; save it as UTF-8 (PowerShell: (Get-Content -Encoding Unicode <file>) | Set-Content -Encoding utf8 <file>)",
    ],
    [
      "UTF-16 BE without a BOM",
      utf16be(order),
      "is UTF-16 without a byte-order mark; save it as UTF-8 (PowerShell: (Get-Content -Encoding BigEndianUnicode <file>)",
    ],
    [
      "Windows-1252 (é as the single byte E9)",
      Buffer.from(orderBody({ orderId: "CAFÉ-1" }), "latin1"),
      "is not UTF-8 (perhaps Windows-1252 or another legacy code page); save it as UTF-8",
    ],
    [
      "UTF-16 LE with a BOM cut short (an odd number of bytes)",
      Buffer.concat([bom16le, Buffer.from(order, "utf16le").subarray(1)]),
      "is not valid UTF-16 LE; save it as UTF-8",
    ],
  ])("%s: one line naming it and the fix, a usage error", (_, bytes, says) => {
    const file = written(bytes);
    let thrown: unknown;
    try {
      readBodyFile(file);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    const message = (thrown as Error).message;
    expect(message).toContain(`body file ${file} ${says.replaceAll("<file>", file)}`);
    expect(message).not.toContain("\n");
  });
});
