// What a guard file may do that the lab must say, never crash on: throw or return what is not
// an Error or an outcome, record its charge under a chargeId of its own, call DynamoDB with fetch.
import { describe, expect, test } from "vitest";
import type { LedgerItem } from "../../contract/ledger.js";
import { invariantChecks, renamedCharges } from "../../harness/check/checks.js";
import type { PhaseFacts } from "../../harness/check/facts.js";
import { fetchHeader } from "../../harness/explore/lambda-world.js";
import { held } from "../../worker/charge.js";
import { notAnOutcome, shownValue, thrown } from "../../worker/invocation.js";
import { Ledger } from "../../worker/ledger.js";
import { event } from "./fixtures.js";

describe("a guard may throw or return anything: it is said in one line", () => {
  test("a throw that is not an Error, even one with no way to become a string", () => {
    expect(thrown("nope")).toEqual({ errorKind: "threw", error: "nope" });
    expect(thrown(null)).toEqual({ errorKind: "threw", error: "null" });
    expect(thrown(undefined)).toEqual({ errorKind: "threw", error: "undefined" });
    expect(thrown(Object.create(null))).toEqual({ errorKind: "threw", error: "{}" });
    expect(thrown(new Error("plain"))).toEqual({ errorKind: "threw", error: "plain" });
  });

  test("a value JSON cannot say: a BigInt, a cycle, a Symbol", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(notAnOutcome(10n)).toMatchObject({ errorKind: "returned", returned: "10" });
    expect(shownValue(cycle)).toBe("[object Object]");
    expect(shownValue(Symbol("s"))).toBe("Symbol(s)");
    const unsayable = Object.assign(Object.create(null), { toJSON: () => 1n });
    expect(shownValue(unsayable)).toBe("object");
  });
});

describe("charge_applied names what the ledger holds", () => {
  const handed = {
    chargeId: "uuid-1",
    orderId: "ORDER-1",
    customerId: "C",
    amount: 1,
    messageId: "m1",
    requestId: "r1",
    attempt: 1,
    chargedAt: "t",
  } satisfies LedgerItem;
  const own = { ...handed, chargeId: "mine=ORDER-1", idempotencyKey: "ORDER-1" };

  test("the item the guard's record wrote through its ledger, and its key for a refusal", () => {
    expect(held(handed, "charged", own)).toEqual({
      answer: "charged",
      chargeId: "mine=ORDER-1",
      key: "ORDER-1",
    });
    expect(held(handed, "refused", own).key).toBe("ORDER-1");
  });

  test("what record said it wrote wins; else the item it was handed", () => {
    expect(held(handed, { answer: "replayed", chargeId: "x=1" }, own)).toEqual({
      answer: "replayed",
      chargeId: "x=1",
      key: "x=1",
    });
    expect(held(handed, "charged", undefined)).toEqual({
      answer: "charged",
      chargeId: "uuid-1",
      key: "uuid-1",
    });
  });

  test("a ledger says what it wrote since a count, through record or a transaction's put", () => {
    const ledger = new Ledger({} as never, "ledger");
    const before = ledger.writes();
    expect(ledger.writtenSince(before)).toBeUndefined();
    ledger.putRequest(own);
    expect(ledger.writtenSince(before)).toBe(own);
    expect(ledger.writtenSince(ledger.writes())).toBeUndefined();
  });
});

describe("a charge line that names another id than its delivery's ledger item", () => {
  const facts = (lines: [string, string][], items: [string, string][]) =>
    ({
      sent: { messages: 1, messageIds: ["m1"], orderIds: [], bodies: [] },
      events: lines.map(([chargeId, requestId]) =>
        event("charge_applied", "m1", 0, { chargeId, requestId }),
      ),
      ledgerItems: items.map(([chargeId, requestId]) => ({
        chargeId,
        requestId,
        messageId: "m1",
        attempt: 1,
      })),
    }) as unknown as PhaseFacts;

  test("is a finding, paired by delivery, and the charge is in the ledger", () => {
    const renamed = facts([["uuid-1", "r1"]], [["hand=ORDER-1", "r1"]]);
    expect(renamedCharges(renamed)).toEqual([
      { requestId: "r1", messageId: "m1", logged: "uuid-1", recorded: "hand=ORDER-1" },
    ]);
    const [, ledger] = invariantChecks(renamed, []);
    expect(ledger?.pass).toBe(true);
  });

  test("a line and an item of different deliveries are no pair: the invariant fails", () => {
    const apart = facts([["uuid-1", "r1"]], [["hand=ORDER-1", "r2"]]);
    expect(renamedCharges(apart)).toEqual([]);
    const [, ledger] = invariantChecks(apart, []);
    expect(ledger?.pass).toBe(false);
  });

  test("two lines of one delivery and one item: one pair, one line without its item", () => {
    const twice = facts(
      [
        ["uuid-1", "r1"],
        ["uuid-2", "r1"],
      ],
      [["hand=ORDER-1", "r1"]],
    );
    expect(renamedCharges(twice)).toHaveLength(1);
    expect(invariantChecks(twice, [])[1]?.pass).toBe(false);
  });
});

describe("fetch's requests are heard by their headers", () => {
  test("undici's flat list (Node 22) and its older one string", () => {
    const list = ["content-type", "x", "X-Amz-Target", "DynamoDB_20120810.PutItem"];
    expect(fetchHeader(list, "x-amz-target")).toBe("DynamoDB_20120810.PutItem");
    expect(fetchHeader(list, "x-lab-explorer-gate")).toBeUndefined();
    const text = "content-type: x\r\nx-amz-target: DynamoDB_20120810.GetItem\r\n";
    expect(fetchHeader(text, "x-amz-target")).toBe("DynamoDB_20120810.GetItem");
    expect(fetchHeader(undefined, "x-amz-target")).toBeUndefined();
  });
});
