import { describe, expect, test } from "vitest";
import { unfinished } from "../../harness/observe/observe.js";
import { event } from "./fixtures.js";

const sent = ["a", "b", "c", "d"].map((messageId) => ({
  messageId,
  body: "{}",
  intendedOrderId: "ORDER-001",
}));

describe("which sent messages have not ended", () => {
  test("charged, skipped and dead-lettered messages have ended; failed and silent ones have not", () => {
    const events = [
      event("process_end", "a", 1, { outcome: "charged" }),
      event("process_end", "b", 2, { outcome: "skipped" }),
      event("claim_won", "c", 3),
      event("process_end", "d", 4, { outcome: "failed" }),
    ];
    expect(unfinished(sent, events, new Set())).toEqual([
      { messageId: "c", intendedOrderId: "ORDER-001", lastEvent: "claim_won" },
      { messageId: "d", intendedOrderId: "ORDER-001", lastEvent: "process_end failed" },
    ]);
    expect(unfinished(sent, events, new Set(["d"])).map((m) => m.messageId)).toEqual(["c"]);
  });

  test("a message the worker never saw says so", () => {
    expect(unfinished(sent.slice(0, 1), [], new Set())).toEqual([
      { messageId: "a", intendedOrderId: "ORDER-001", lastEvent: "none yet" },
    ]);
  });
});
