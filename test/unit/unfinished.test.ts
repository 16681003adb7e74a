import { describe, expect, test } from "vitest";
import {
  deliveriesAfterAcknowledged,
  lastDeliveryLogged,
  unfinished,
} from "../../harness/observe/deliveries.js";
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

  test("a dead-lettered message has ended only once its last delivery is in the log", () => {
    const events = [
      event("process_start", "a", 1, { attempt: 1 }),
      event("process_start", "a", 2, { attempt: 2 }),
      event("process_start", "b", 3, { attempt: 1 }),
      event("process_start", "b", 4, { attempt: 2 }),
      event("process_start", "b", 5, { attempt: 3 }),
    ];
    const dlq = new Set(["a", "b"]);
    // The emulator moved both; a's third delivery has not shipped its lines yet.
    expect([...lastDeliveryLogged(dlq, events, 3)]).toEqual(["b"]);
    expect(unfinished(sent.slice(0, 2), events, lastDeliveryLogged(dlq, events, 3))).toEqual([
      { messageId: "a", intendedOrderId: "ORDER-001", lastEvent: "process_start" },
    ]);
    expect(lastDeliveryLogged(dlq, events, undefined)).toBe(dlq);
  });
});

describe("deliveries after the message was acknowledged", () => {
  test("a delivery that starts after another acknowledged the message is named; one during it is not", () => {
    const events = [
      event("process_start", "m1", 0, { requestId: "r1", attempt: 1 }),
      event("process_start", "m1", 10, { requestId: "r2", attempt: 2 }),
      event("process_end", "m1", 20, { requestId: "r1", outcome: "charged" }),
      event("process_end", "m1", 30, { requestId: "r2", outcome: "skipped" }),
      event("process_start", "m1", 40, { requestId: "r3", attempt: 3 }),
      event("process_start", "m2", 40, { requestId: "r4", attempt: 1 }),
      event("process_end", "m2", 50, { requestId: "r4", outcome: "failed" }),
      event("process_start", "m2", 60, { requestId: "r5", attempt: 2 }),
    ];
    expect(deliveriesAfterAcknowledged(events).map((e) => e.requestId)).toEqual(["r3"]);
  });

  test("a record charged in a batch that then failed comes back by design: not named", () => {
    const events = [
      event("process_start", "m1", 0, { requestId: "r1", attempt: 1 }),
      event("process_end", "m1", 10, { requestId: "r1", outcome: "charged" }),
      event("batch_failed", "m1", 20, { requestId: "r1" }),
      event("process_start", "m1", 30, { requestId: "r2", attempt: 2 }),
    ];
    expect(deliveriesAfterAcknowledged(events)).toEqual([]);
  });
});
