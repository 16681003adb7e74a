// --repeat: the summary of N runs (which checks failed, in how many runs).
import { describe, expect, test } from "vitest";
import type { Check } from "../../harness/check/facts.js";
import {
  repeatSummary,
  runLine,
  runToReport,
  textRepeatSummary,
} from "../../harness/cli/repeat.js";
import type { ScenarioResult } from "../../harness/scenario/result.js";
import { phaseResult, scenarioResult } from "./fixtures.js";

const check = (name: string, pass: boolean, expected = 1, actual = pass ? 1 : 2): Check => ({
  name,
  pass,
  expected,
  actual,
});

/** One run: each phase named with its checks. */
function run(phases: Record<string, Check[]>, durationMs = 4200): ScenarioResult {
  const results = Object.entries(phases).map(([name, checks]) =>
    phaseResult({ name, checks, pass: checks.every((c) => c.pass) }),
  );
  return scenarioResult({
    scenario: "guard-on",
    phases: results,
    pass: results.every((p) => p.pass),
    durationMs,
  });
}

const held = () => run({ "ten copies": [check("charges", true), check("claim_won", true)] });
const doubled = () => run({ "ten copies": [check("charges", false), check("claim_won", true)] });

describe("the summary of repeated runs", () => {
  test("every run held: N/N passed, nothing flaky", () => {
    const summary = repeatSummary("guard-on", [held(), held(), held()]);
    expect(summary).toEqual({ scenario: "guard-on", runs: 3, passed: 3, flaky: [] });
    expect(textRepeatSummary(summary)).toBe("3/3 passed");
  });

  test("a check that failed in some runs is counted once per run it failed in", () => {
    const runs = [held(), doubled(), held(), doubled(), held()];
    const summary = repeatSummary("guard-on", runs);
    expect(summary).toEqual({
      scenario: "guard-on",
      runs: 5,
      passed: 3,
      flaky: [{ phase: "ten copies", check: "charges", failed: 2 }],
    });
    expect(textRepeatSummary(summary)).toBe("3/5 passed\n  charges: failed 2 of 5");
  });

  test("the same check name in two phases is two entries; the text names the phase", () => {
    const runs = [
      run({ naive: [check("charges", false)], claim: [check("charges", true)] }),
      run({ naive: [check("charges", false)], claim: [check("charges", false)] }),
      // a check listed twice in one phase still counts one run
      run({ naive: [check("charges", false), check("charges", false)], claim: [] }),
    ];
    const summary = repeatSummary("racing-copies", runs);
    expect(summary.flaky).toEqual([
      { phase: "naive", check: "charges", failed: 3 },
      { phase: "claim", check: "charges", failed: 1 },
    ]);
    expect(textRepeatSummary(summary, true).split("\n")).toEqual([
      "0/3 passed",
      "  naive › charges: failed 3 of 3",
      "  claim › charges: failed 1 of 3",
    ]);
  });

  test("a run's line says whether it held, and which checks failed, expected against actual", () => {
    expect(runLine(held(), 3, 20)).toBe("run  3/20 ✓ guard-on: every check held (4.2 s)");
    expect(runLine(doubled(), 12, 20)).toBe(
      "run 12/20 ✗ guard-on: charges expected 1, got 2 (4.2 s)",
    );
    const many = run({
      a: [check("w", false), check("x", false)],
      b: [check("y", false), check("z", false)],
    });
    expect(runLine(many, 1, 1)).toBe(
      "run 1/1 ✗ guard-on: a › w expected 1, got 2; a › x expected 1, got 2; b › y expected 1, got 2; and 1 more (4.2 s)",
    );
  });

  test("--html shows the first failed run, else the last", () => {
    const [a, b, c] = [held(), doubled(), doubled()];
    expect(runToReport([a, b, c])).toBe(b);
    const last = held();
    expect(runToReport([held(), last])).toBe(last);
  });
});
