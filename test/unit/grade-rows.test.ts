// A grade's row is read from typed fields only: the cell's failures, its notRaced, the checks'
// ids and process_end's errorKind. These runs are built by hand, so each kind is seen alone.
import { describe, expect, test } from "vitest";
import { guardProblems, rowGrade } from "../../harness/grade/rows.js";
import { cellText, cellWords } from "../../harness/report/failure-words.js";
import { event, phaseResult } from "./fixtures.js";

const ENDS = [
  event("process_start", "m1", 0, { attempt: 1 }),
  event("process_end", "m1", 10, {
    outcome: "failed",
    errorKind: "threw",
    error: "cannot charge yet",
    at: "my-guard.ts:12:5",
  }),
  event("process_start", "m1", 20, { attempt: 2, requestId: "req-2" }),
  event("process_end", "m1", 30, {
    requestId: "req-2",
    outcome: "failed",
    errorKind: "threw",
    error: "cannot charge yet",
    at: "my-guard.ts:12:5",
  }),
  event("process_start", "m2", 40, { attempt: 1 }),
  event("process_end", "m2", 50, { outcome: "failed", errorKind: "returned", returned: "42" }),
  // The lab's own fault: not the guard's problem.
  event("process_start", "m2", 60, { attempt: 2, requestId: "req-3" }),
  event("process_end", "m2", 70, {
    requestId: "req-3",
    outcome: "failed",
    errorKind: "injected",
    error: "failpoint before-charge: fail",
  }),
  // Started, never ended: Lambda timed it out.
  event("process_start", "m3", 80, { attempt: 1 }),
];

describe("a grade's row, from typed fields", () => {
  const phase = phaseResult({
    setup: { guard: "claim", parseMode: "lenient", fault: "none", workMs: 0, pollers: 0 },
    sent: { messages: 3, sends: 3, messageIds: ["m1", "m2", "m3"], orderIds: [], bodies: [] },
    timeline: ENDS,
  });

  test("a throw counted per delivery, a returned value, a timeout; an injected fault is not the guard's", () => {
    expect(guardProblems(phase)).toEqual([
      { kind: "threw", error: "cannot charge yet", at: "my-guard.ts:12:5", deliveries: 2 },
      { kind: "returned", returned: "42", deliveries: 1 },
      { kind: "timed-out", copies: [3], deliveries: 1 },
    ]);
  });

  test("a row that did not race is not ✓ and says so, though it has no failure kind", () => {
    const row = rowGrade({
      ...phase,
      pass: false,
      cell: {
        row: "racing copies",
        column: "my-guard.ts",
        ok: false,
        failures: {},
        notRaced: "never-held",
        charges: 1,
        orders: 1,
      },
      checks: [
        {
          id: "row-raced",
          name: "racing copies raced as scripted",
          pass: false,
          expected: "yes",
          actual: "never-held",
        },
        {
          id: "charges-in-ledger",
          name: "charge_applied lines with exactly one ledger item",
          pass: false,
          expected: 1,
          actual: 0,
        },
      ],
    });
    expect(row).toMatchObject({ ok: false, failures: {}, notRaced: "never-held" });
    expect(row.invariants.map((c) => c.id)).toEqual(["charges-in-ledger"]);
    expect(cellWords(row)).toBe("not raced");
  });

  test("a cell's words come from its failures, in the vocabulary's order", () => {
    const cell = { ok: false, failures: { lost: 1, doubled: 3 } };
    expect(cellText(cell)).toBe("✗ doubled 3, lost 1");
    expect(cellText({ ok: true, failures: {} })).toBe("✓ exactly once");
  });
});
