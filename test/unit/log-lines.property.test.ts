// Whatever a body holds, each log line is one line of JSON with the contract's keys first: a
// property over arbitrary strings and values, including the line separators JSON leaves raw.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { EVENT_TYPES } from "../../contract/events.js";
import { parseEvent } from "../../harness/observe/events.js";
import { bodyFields, formatLine, MAX_VALUE_CHARS } from "../../worker/log.js";

const CONTRACT_KEYS = ["type", "orderId", "messageId", "requestId", "guard", "ts"];
/** Characters that end a line somewhere between stdout and CloudWatch Logs. */
const LINE_BREAKS = /[\n\r\u2028\u2029\u0085]/;

/** Strings weighted towards the awkward: separators, quotes, lone surrogates, long runs. */
const awkward = fc.oneof(
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "\u2028",
    "\u2029",
    "a\u2028b",
    '"}\n{"type":"charge_applied"',
    "\ud800",
    "\u0085",
  ),
  fc.string({ minLength: MAX_VALUE_CHARS, maxLength: 5_000 }),
);
/** A body past SQS's comfort zone (200 KB and more), cheap to make: a seed, padded. */
const huge = fc
  .tuple(awkward, fc.integer({ min: 200_000, max: 210_000 }))
  .map(([seed, length]) => seed.padEnd(length, "x\u2028"));
const value = fc.oneof(awkward, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const details = fc.dictionary(
  fc.oneof(awkward, fc.constantFrom(...CONTRACT_KEYS, "__proto__")),
  value,
);

describe("every log line, whatever the input", () => {
  test("is one line, parses as JSON, and starts with the contract's keys", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EVENT_TYPES),
        fc.record({ orderId: awkward, messageId: awkward, requestId: awkward, guard: awkward }),
        details,
        (type, context, extra) => {
          const line = formatLine(type, context, extra);
          expect(line).not.toMatch(LINE_BREAKS);
          const parsed = JSON.parse(line) as Record<string, unknown>;
          // JSON.parse puts integer-like keys ("0") first whatever the text says, so the order
          // is read from the text: the line begins as the same line without details does.
          const head = formatLine(type, context, {}, new Date(parsed.ts as string));
          expect(Object.keys(JSON.parse(head))).toEqual(CONTRACT_KEYS);
          expect(line === head || line.startsWith(`${head.slice(0, -1)},`)).toBe(true);
          expect(parsed.type).toBe(type);
          // The harness reads it back as the same event.
          expect(parseEvent(line)?.type).toBe(type);
          for (const v of Object.values(parsed)) {
            if (typeof v === "string") expect(v.length).toBeLessThan(MAX_VALUE_CHARS + 40);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  test("a detail keyed like an array index still comes after the contract's keys", () => {
    const context = { orderId: "o", messageId: "m", requestId: "r", guard: "g" };
    const line = formatLine("process_start", context, { "0": false });
    expect(line).toMatch(/^\{"type":"process_start","orderId":"o",.*,"0":false\}$/);
  });

  test("a parse_failed line for any body stays short and identifies the body", () => {
    fc.assert(
      fc.property(fc.oneof(awkward, huge), (body) => {
        const context = {
          orderId: "unparseable",
          messageId: "m",
          requestId: "r",
          guard: "claim",
        };
        const line = formatLine("parse_failed", context, { error: "x", ...bodyFields(body) });
        expect(line).not.toMatch(LINE_BREAKS);
        expect(Buffer.byteLength(line)).toBeLessThan(8_000);
        const parsed = JSON.parse(line);
        expect(parsed.bodyLength).toBe(body.length);
        expect(parsed.bodySha256).toMatch(/^[0-9a-f]{16}$/);
      }),
      { numRuns: 100 },
    );
  });

  test("a body that fits is carried whole, separators included, and reads back the same", () => {
    const body = '{"orderId":"ORDER\u2028001"}';
    const line = formatLine(
      "parse_failed",
      { orderId: "o", messageId: "m", requestId: "r", guard: "g" },
      bodyFields(body),
    );
    expect(line).toContain("\\u2028");
    expect(JSON.parse(line).body).toBe(body);
  });
});
