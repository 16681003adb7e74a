// Reading the worker's lines back when the emulator caps a FilterLogEvents reply: MiniStack
// returns at most `limit` lines and no nextToken, so a long run's later lines must be asked
// for again from the last line's time. A fake log service that behaves that way, for the logic.
import type { FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { describe, expect, test } from "vitest";
import type { Connection } from "../../harness/aws/connection.js";
import { readEvents } from "../../harness/observe/observe.js";
import { formatLine } from "../../worker/log.js";

const LINES = 25_000;
const stored = Array.from({ length: LINES }, (_, i) => {
  const timestamp = 1_000 + Math.floor(i / 3); // three lines per millisecond
  const context = { orderId: "O", messageId: `m-${i}`, requestId: "r", guard: "off" };
  return {
    eventId: `e-${i}`,
    timestamp,
    message: formatLine("process_start", context, {}, new Date(timestamp)),
  };
});

/** Like MiniStack: lines from startTime on, at most `limit`, never a nextToken. */
const capped = {
  logs: {
    send: async (command: FilterLogEventsCommand) => {
      const { startTime = 0, limit = 10_000 } = command.input;
      return { events: stored.filter((e) => e.timestamp >= startTime).slice(0, limit) };
    },
  },
} as unknown as Connection;

describe("readEvents", () => {
  test("finds every line past the emulator's cap, each once", async () => {
    const ids = new Set(stored.map((_, i) => `m-${i}`));
    const events = await readEvents(capped, "group", 0, ids);
    expect(events).toHaveLength(LINES);
    expect(new Set(events.map((e) => e.messageId)).size).toBe(LINES);
  });
});
