import { describe, expect, test } from "vitest";
import { EVENT_TYPES } from "../../contract/events.js";
import { parseEvent } from "../../harness/observe/events.js";
import { INSIGHTS_PATTERNS } from "../../harness/observe/insights.js";
import { createLog, formatLine } from "../../worker/log.js";

const context = {
  orderId: "ORDER-003",
  messageId: "5b0f4c1e-0000-4000-8000-000000000001",
  requestId: "req-1",
  guard: "claim",
};
const at = new Date("2026-09-14T12:00:00.123Z");

describe("the worker's log lines", () => {
  test("are one JSON object with the contract's keys first, in order", () => {
    const line = formatLine(
      "charge_applied",
      context,
      { amount: 150, customerId: "CUSTOMER-123", chargeId: "c-1" },
      at,
    );
    expect(line).not.toContain("\n");
    expect(Object.keys(JSON.parse(line))).toEqual([
      "type",
      "orderId",
      "messageId",
      "requestId",
      "guard",
      "ts",
      "amount",
      "customerId",
      "chargeId",
    ]);
    expect(JSON.parse(line).ts).toBe("2026-09-14T12:00:00.123Z");
  });

  test("have no space between a key and its value, so the article's filters match", () => {
    const line = formatLine("charge_applied", context, {}, at);
    expect(line).toMatch(INSIGHTS_PATTERNS.chargeApplied);
    expect(line).toMatch(INSIGHTS_PATTERNS.isEvent);
    expect(line.match(INSIGHTS_PATTERNS.orderId)?.groups?.orderId).toBe("ORDER-003");
    expect(line.match(INSIGHTS_PATTERNS.messageId)?.groups?.messageId).toBe(context.messageId);
  });

  test.each(EVENT_TYPES)("the type regex extracts %s", (type) => {
    const line = formatLine(type, context, {}, at);
    expect(line.match(INSIGHTS_PATTERNS.type)?.groups?.type).toBe(type);
    expect(line.match(INSIGHTS_PATTERNS.chargeApplied) !== null).toBe(type === "charge_applied");
  });

  test("the unparseable key is what the orderId regex sees in a mangled run", () => {
    const line = formatLine("process_start", { ...context, orderId: "unparseable" }, {}, at);
    expect(line.match(INSIGHTS_PATTERNS.orderId)?.groups?.orderId).toBe("unparseable");
  });

  test("createLog writes lines the harness reads back as the same event", () => {
    const lines: string[] = [];
    createLog(context, (l) => lines.push(l))("process_end", {
      outcome: "charged",
      durationMs: 12,
      dynamoCalls: 1,
      dynamoAttempts: 1,
    });
    expect(parseEvent(lines[0] ?? "")).toMatchObject({
      type: "process_end",
      ...context,
      outcome: "charged",
      durationMs: 12,
    });
  });

  test("the real runtime's prefix before the JSON is tolerated", () => {
    const line = formatLine("claim_won", context, {}, at);
    const prefixed = `2026-09-14T12:00:00.123Z\t${context.requestId}\tINFO\t${line}\n`;
    expect(parseEvent(prefixed)).toMatchObject({ type: "claim_won", orderId: "ORDER-003" });
    expect(prefixed).toMatch(INSIGHTS_PATTERNS.type);
  });

  test("runtime lines are not events", () => {
    expect(parseEvent("START RequestId: 1 Version: $LATEST")).toBeUndefined();
    expect(parseEvent('{"type":"not_ours","messageId":"m","ts":"x"}')).toBeUndefined();
    expect(parseEvent("{broken")).toBeUndefined();
  });
});
