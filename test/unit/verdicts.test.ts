import { describe, expect, test } from "vitest";
import type { IntendedOutcome, PhaseFacts } from "../../harness/check/facts.js";
import { judgeMismatch, judgeOrders } from "../../harness/check/verdicts.js";
import { cellText } from "../../harness/report/failure-words.js";

function facts(
  intended: Record<string, Partial<IntendedOutcome>>,
  extra: Partial<PhaseFacts> = {},
): PhaseFacts {
  const full = Object.fromEntries(
    Object.entries(intended).map(([order, o]) => [
      order,
      {
        messages: 1,
        charges: 1,
        chargedUnderItsId: 1,
        deadLettered: 0,
        verdict: "exactly once",
        ...o,
      },
    ]),
  ) as Record<string, IntendedOutcome>;
  const charges = Object.values(full).reduce((n, o) => n + o.charges, 0);
  return {
    sent: { messages: 1, sends: 1, messageIds: [], orderIds: Object.keys(full), bodies: [] },
    observed: {
      eventCounts: {},
      charges: { charges, orders: 1, messages: charges },
      chargesByOrder: {},
      intended: full,
      claims: [],
      ledger: charges,
      dlq: 0,
      maxConcurrency: 1,
    },
    events: [],
    ledgerItems: [],
    deadLettered: [],
    ...extra,
  };
}

describe("matrix cells", () => {
  test("every order once is ✓", () => {
    const verdict = judgeOrders(facts({ A: {} }));
    expect(verdict).toEqual({ ok: true, failures: {}, charges: 1, orders: 1 });
    expect(cellText(verdict)).toBe("✓ exactly once");
  });

  test("extra charges, lost orders and wrong keys are each counted", () => {
    const verdict = judgeOrders(
      facts({
        A: { charges: 4, chargedUnderItsId: 4, verdict: "duplicated" },
        B: { charges: 0, chargedUnderItsId: 0, verdict: "lost" },
        C: { chargedUnderItsId: 0, verdict: "wrong key" },
      }),
    );
    expect(verdict).toMatchObject({
      ok: false,
      failures: { doubled: 3, lost: 1, "wrong key": 1 },
      charges: 5,
      orders: 3,
    });
    expect(cellText(verdict)).toBe("✗ doubled 3, lost 1, wrong key 1");
  });

  test("a different payload skipped without a word is a failure, even with one charge", () => {
    expect(cellText(judgeMismatch(facts({ A: {} })))).toBe("✗ mismatch skipped silently");
    const refused = facts({ A: {} }, { deadLettered: ["m2"] });
    refused.observed.eventCounts.payload_mismatch = 3;
    expect(judgeMismatch(refused).ok).toBe(true);
  });
});
