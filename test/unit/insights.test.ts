import { describe, expect, test } from "vitest";
import { intendedOutcomes } from "../../harness/check/outcomes.js";
import {
  chargeSummary,
  chargesByOrder,
  countsByType,
  QUERIES,
  timeline,
} from "../../harness/observe/insights.js";
import { event } from "./fixtures.js";

// The article's experiment 1: four copies of one order, guard off.
const guardOff = ["m1", "m2", "m3", "m4"].flatMap((id, i) => [
  event("process_start", id, i * 10),
  event("charge_applied", id, i * 10 + 5, { chargeId: `c-${id}` }),
  event("process_end", id, i * 10 + 6, { outcome: "charged" }),
]);

describe("the Logs Insights views", () => {
  test("counts by type", () => {
    expect(countsByType(guardOff)).toEqual({ process_start: 4, charge_applied: 4, process_end: 4 });
  });

  test("charges, distinct orders and distinct messages over charge_applied", () => {
    expect(chargeSummary(guardOff)).toEqual({ charges: 4, orders: 1, messages: 4 });
    expect(chargeSummary([])).toEqual({ charges: 0, orders: 0, messages: 0 });
  });

  test("charges by order keep the key the worker saw", () => {
    const mixed = [
      event("charge_applied", "a", 1, { orderId: "unparseable" }),
      event("charge_applied", "b", 2, { orderId: "unparseable" }),
      event("charge_applied", "c", 3, { orderId: "ORDER-002" }),
    ];
    expect(chargesByOrder(mixed)).toEqual({ unparseable: 2, "ORDER-002": 1 });
  });

  test("one order's timeline", () => {
    const other = event("process_start", "x", 0, { orderId: "ORDER-009" });
    expect(timeline([...guardOff, other], "ORDER-009")).toEqual([other]);
  });

  test("each view has a query to paste into the console", () => {
    expect(QUERIES.countsByType).toContain("stats count(*)");
    expect(QUERIES.charges).toContain("count_distinct(orderId)");
    expect(QUERIES.charges).toContain("count_distinct(messageId)");
    expect(QUERIES.timeline("ORDER-003")).toContain('/"orderId":"ORDER-003"/');
  });
});

describe("orders as the sender meant them", () => {
  test("a mangled order that never charged is lost; the one that did is under the wrong key", () => {
    const sent = [
      { messageId: "a", body: "{orderId:ORDER-001}", intendedOrderId: "ORDER-001" },
      { messageId: "b", body: "{orderId:ORDER-002}", intendedOrderId: "ORDER-002" },
    ];
    const events = [
      event("charge_applied", "a", 1, { orderId: "unparseable" }),
      event("skip_duplicate", "b", 2),
    ];
    expect(intendedOutcomes(sent, events)).toEqual({
      "ORDER-001": {
        messages: 1,
        charges: 1,
        chargedUnderItsId: 0,
        deadLettered: 0,
        verdict: "wrong key",
      },
      "ORDER-002": {
        messages: 1,
        charges: 0,
        chargedUnderItsId: 0,
        deadLettered: 0,
        verdict: "lost",
      },
    });
  });

  test("four charges of one order are a duplicate", () => {
    const sent = ["m1", "m2", "m3", "m4"].map((messageId) => ({
      messageId,
      body: "",
      intendedOrderId: "ORDER-001",
    }));
    expect(intendedOutcomes(sent, guardOff)["ORDER-001"]).toEqual({
      messages: 4,
      charges: 4,
      chargedUnderItsId: 4,
      deadLettered: 0,
      verdict: "duplicated",
    });
  });

  test("an order never charged but waiting in the dead-letter queue is not silently lost", () => {
    const sent = [{ messageId: "p1", body: "{orderId:X}", intendedOrderId: "ORDER-001" }];
    expect(intendedOutcomes(sent, [], new Set(["p1"]))["ORDER-001"]?.verdict).toBe("dead-lettered");
    expect(intendedOutcomes(sent, [], new Set())["ORDER-001"]?.verdict).toBe("lost");
  });

  test("one charge under its own id is exactly once", () => {
    const sent = [{ messageId: "m1", body: "", intendedOrderId: "ORDER-001" }];
    expect(intendedOutcomes(sent, guardOff.slice(0, 3))["ORDER-001"]?.verdict).toBe("exactly once");
  });
});
