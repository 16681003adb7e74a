// npx lab scenario <name> --repeat N: the same scenario N times on one lab, to find the checks
// that hold only sometimes. Pure: the command runs the scenarios, this reads their results.
import type { ScenarioResult } from "../scenario/result.js";

/** Enough to see a flake that shows up one run in fifty; few enough to finish in minutes. */
export const MAX_REPEAT = 100;

/** A check that failed in at least one run: in which phase, and in how many runs. */
export interface FlakyCheck {
  phase: string;
  check: string;
  failed: number;
}

/** What --repeat prints with --json. */
export interface RepeatSummary {
  scenario: string;
  runs: number;
  passed: number;
  flaky: FlakyCheck[];
}

/** The failed checks of one run, each (phase, check) once, in the order the run reported them. */
function failedChecks(result: ScenarioResult): { phase: string; check: string }[] {
  const seen = new Map<string, { phase: string; check: string }>();
  for (const phase of result.phases)
    for (const check of phase.checks)
      if (!check.pass)
        seen.set(JSON.stringify([phase.name, check.name]), {
          phase: phase.name,
          check: check.name,
        });
  return [...seen.values()];
}

/** How many runs passed and, per check that failed at least once, in how many runs it did. */
export function repeatSummary(scenario: string, results: ScenarioResult[]): RepeatSummary {
  const flaky = new Map<string, FlakyCheck>();
  for (const result of results) {
    for (const { phase, check } of failedChecks(result)) {
      const key = JSON.stringify([phase, check]);
      const known = flaky.get(key);
      if (known) known.failed += 1;
      else flaky.set(key, { phase, check, failed: 1 });
    }
  }
  return {
    scenario,
    runs: results.length,
    passed: results.filter((r) => r.pass).length,
    flaky: [...flaky.values()],
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One run, in one line: whether it held, and if not which checks failed, expected against actual. */
export function runLine(result: ScenarioResult, run: number, runs: number): string {
  const head = `run ${String(run).padStart(String(runs).length)}/${runs}`;
  if (result.pass)
    return `${head} ✓ ${result.scenario}: every check held (${seconds(result.durationMs)})`;
  const several = result.phases.length > 1;
  const failures = result.phases.flatMap((phase) =>
    phase.checks
      .filter((c) => !c.pass)
      .map(
        (c) =>
          `${several ? `${phase.name} › ` : ""}${c.name} expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`,
      ),
  );
  const shown = failures.slice(0, 3).join("; ");
  const more = failures.length > 3 ? `; and ${failures.length - 3} more` : "";
  return `${head} ✗ ${result.scenario}: ${shown}${more} (${seconds(result.durationMs)})`;
}

/**
 * The summary for the terminal: N/N passed, then each check that failed and how often, named by
 * its phase too when the scenario has several.
 */
export function textRepeatSummary(summary: RepeatSummary, several = false): string {
  return [
    `${summary.passed}/${summary.runs} passed`,
    ...summary.flaky.map(
      (f) => `  ${several ? `${f.phase} › ` : ""}${f.check}: failed ${f.failed} of ${summary.runs}`,
    ),
  ].join("\n");
}

/** The run worth a page with --html: the first that failed, else the last. */
export function runToReport(results: ScenarioResult[]): ScenarioResult | undefined {
  return results.find((r) => !r.pass) ?? results.at(-1);
}
