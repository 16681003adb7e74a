import { describe, expect, test } from "vitest";
import { invariantChecks, sameIds } from "../../harness/check/checks.js";
import type { PhaseFacts } from "../../harness/check/facts.js";
import { event } from "./fixtures.js";

describe("id-list checks say which ids differ", () => {
  const sides = { expected: "logged", actual: "stored" };

  test("the same ids in another order pass", () => {
    const check = sameIds("ids", sides, ["b", "a"], ["a", "b"]);
    expect(check.pass).toBe(true);
    expect(check.actual).toBe("the same 2 ids in both");
  });

  test("equal counts with different ids fail and name both ids", () => {
    const check = sameIds("ids", sides, ["a", "b", "c"], ["a", "b", "x"]);
    expect(check.pass).toBe(false);
    expect(check.expected).toBe("3 logged");
    expect(check.actual).toBe("3 stored; not in stored: c; only in stored: x");
  });

  test("an id stored twice is a difference, not the same set", () => {
    const check = sameIds("ids", sides, ["a"], ["a", "a"]);
    expect(check.pass).toBe(false);
    expect(check.actual).toBe("2 stored; not in stored: none; only in stored: a");
  });
});

describe("the invariants", () => {
  const facts = (chargeIds: string[], ledgerIds: string[]): PhaseFacts =>
    ({
      sent: { messages: 2, messageIds: ["m1", "m2"], orderIds: [], bodies: [] },
      events: chargeIds.map((chargeId) => event("charge_applied", "m1", 0, { chargeId })),
      ledgerItems: ledgerIds.map((chargeId) => ({ chargeId })),
    }) as unknown as PhaseFacts;

  test("a message that never ended is named", () => {
    const [ended] = invariantChecks(facts([], []), ["m2"]);
    expect(ended?.pass).toBe(false);
    expect(ended?.actual).toBe("1 ended; not in ended: m2; only in ended: none");
  });

  test("a charge stored but not logged names its delivery: killed if it never ended, another phase's if its message is not this one's", () => {
    const withDeliveries = {
      ...facts(["c1"], []),
      events: [
        event("process_start", "m1", 0, { requestId: "r1" }),
        event("process_start", "m1", 0, { requestId: "r2" }),
        event("process_start", "m1", 0, { requestId: "r3" }),
        event("charge_applied", "m1", 0, { chargeId: "c1", requestId: "r1" }),
        event("process_end", "m1", 1, { requestId: "r1" }),
        event("process_end", "m1", 2, { requestId: "r3" }),
      ],
      ledgerItems: [
        { chargeId: "c1", messageId: "m1", requestId: "r1", attempt: 1 },
        { chargeId: "c2", messageId: "m1", requestId: "r2", attempt: 2 },
        { chargeId: "c3", messageId: "m1", requestId: "r3", attempt: 3 },
        { chargeId: "c4", messageId: "m9", requestId: "r9", attempt: 3 },
      ],
    } as unknown as PhaseFacts;
    const [, ledger] = invariantChecks(withDeliveries, []);
    expect(ledger?.pass).toBe(false);
    expect(ledger?.actual).toContain(
      "c2 was charged by delivery r2 (attempt 2), which never ended: killed after its charge",
    );
    expect(ledger?.actual).toContain(
      "c3 was charged by delivery r3 (attempt 3), which ended without its charge line",
    );
    expect(ledger?.actual).toContain(
      "c4 was charged by delivery r9 (attempt 3), of message m9, which this phase did not send",
    );
    expect(ledger?.actual).not.toContain("c1 was charged");
  });

  test("a charge logged but not stored is named", () => {
    const [, ledger] = invariantChecks(facts(["c1", "c2"], ["c1", "c9"]), []);
    expect(ledger?.pass).toBe(false);
    expect(ledger?.actual).toContain("not in ledger items: c2; only in ledger items: c9");
  });
});
