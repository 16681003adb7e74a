// The load bench's arithmetic: the messages it sends, the exactly-once checker and
// the numbers it reads from log lines, on hand-built data.
import { describe, expect, test } from "vitest";
import {
  exactlyOnce,
  loadMessages,
  loadOrderId,
  loadStats,
  loadTimeoutMs,
  percentile,
  ratio,
  shuffled,
} from "../../bench/load-stats.js";
import type { LedgerItem } from "../../contract/ledger.js";
import { event } from "./fixtures.js";

describe("the messages", () => {
  test("order ids are zero-padded to at least four digits", () => {
    expect(loadOrderId(1, 200)).toBe("LOAD-0001");
    expect(loadOrderId(200, 200)).toBe("LOAD-0200");
    expect(loadOrderId(7, 10_000)).toBe("LOAD-00007");
  });

  test("N orders × C copies, 150.00 each, shuffled the same way for the same seed", () => {
    const messages = loadMessages(20, 3, 42);
    expect(messages).toHaveLength(60);
    const perOrder = new Map<string, number>();
    for (const m of messages)
      perOrder.set(m.intendedOrderId, (perOrder.get(m.intendedOrderId) ?? 0) + 1);
    expect(perOrder.size).toBe(20);
    expect([...perOrder.values()].every((n) => n === 3)).toBe(true);
    expect(messages[0]?.body).toMatch(
      /^\{"orderId":"LOAD-\d{4}","customerId":"CUSTOMER-\d{4}","amount":150\.00\}$/,
    );
    expect(loadMessages(20, 3, 42)).toEqual(messages);
    expect(loadMessages(20, 3, 43)).not.toEqual(messages);
    // shuffled: not in the order they were built
    expect(messages.slice(0, 3).map((m) => m.intendedOrderId)).not.toEqual([
      "LOAD-0001",
      "LOAD-0001",
      "LOAD-0001",
    ]);
  });

  test("the shuffle keeps every item and leaves its input alone", () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const out = shuffled(items, 1);
    expect(out).not.toEqual(items);
    expect([...out].sort((a, b) => a - b)).toEqual(items);
    expect(items[0]).toBe(0);
  });

  test("the timeout grows with the messages", () => {
    expect(loadTimeoutMs(60)).toBe(78_000);
    expect(loadTimeoutMs(1000)).toBe(360_000);
  });
});

const charge = (orderId: string, n: number): LedgerItem => ({
  chargeId: `ch-${orderId}-${n}`,
  orderId,
  customerId: "C",
  amount: 150,
  messageId: `m-${n}`,
  requestId: `r-${n}`,
  attempt: 1,
  chargedAt: "2026-09-14T12:00:00.000Z",
});

describe("the exactly-once checker", () => {
  test("counts orders charged once, twice or more, and never; other orders are ignored", () => {
    const ledger = [
      charge("A", 1),
      charge("B", 1),
      charge("B", 2),
      charge("C", 1),
      charge("C", 2),
      charge("C", 3),
      charge("ELSEWHERE", 1),
    ];
    expect(exactlyOnce(["A", "B", "C", "D"], ledger)).toEqual({
      once: 1,
      twiceOrMore: 2,
      never: 1,
    });
  });
});

describe("the numbers from the log lines", () => {
  test("percentile is nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  test("throughput over first start → last end; latency, cost by role, retries, overlap", () => {
    const events = [
      // a winner: 2 calls
      event("process_start", "m1", 0, { attempt: 1 }),
      event("process_end", "m1", 100, { outcome: "charged", durationMs: 100, dynamoCalls: 2 }),
      // a duplicate, at the same time: 1 call
      event("process_start", "m2", 50, { attempt: 1 }),
      event("process_end", "m2", 60, { outcome: "skipped", durationMs: 10, dynamoCalls: 1 }),
      // turned away busy (2 calls), then skipped on its retry (1 call): a duplicate costing 3
      event("process_start", "m3", 70, { attempt: 1 }),
      event("process_end", "m3", 80, { outcome: "failed", durationMs: 10, dynamoCalls: 2 }),
      event("process_start", "m3", 1900, { requestId: "retry", attempt: 2 }),
      event("process_end", "m3", 2000, {
        requestId: "retry",
        outcome: "skipped",
        durationMs: 100,
        dynamoCalls: 1,
      }),
    ];
    const stats = loadStats(events, 3);
    expect(stats.windowMs).toBe(2000);
    expect(stats.throughput).toBeCloseTo(1.5);
    // before the retry: three first deliveries in 100 ms
    expect(stats.firstDeliveries).toEqual({ invocations: 3, windowMs: 100, throughput: 30 });
    expect(stats.p50Ms).toBe(10);
    expect(stats.p99Ms).toBe(100);
    expect(stats.calls.winner).toEqual({ messages: 1, mean: 2, max: 2 });
    expect(stats.calls.duplicate).toEqual({ messages: 2, mean: 2, max: 3 });
    expect(stats.failedDeliveries).toBe(1);
    expect(stats.concurrency.max).toBe(2);
    expect(stats.concurrency.mean).toBeCloseTo((100 + 10 + 10 + 100) / 2000);
  });

  test("no events: nothing to divide by", () => {
    const stats = loadStats([], 10);
    expect(stats.throughput).toBe(0);
    expect(stats.calls).toEqual({ winner: undefined, duplicate: undefined });
  });

  test("ratios need something to compare with", () => {
    expect(ratio(50, 100)).toBe(0.5);
    expect(ratio(50, undefined)).toBeUndefined();
    expect(ratio(50, 0)).toBeUndefined();
  });
});
