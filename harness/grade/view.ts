// The grade as the report views draw it (text: report/grade-view.ts, HTML: report/html/
// grade-page.ts): each row's mark and words from its typed failures, the explorer's line, and
// for each ✗ the run or the shortest interleaving that broke the guard.
import path from "node:path";
import type { GuardReport } from "../explore/explore.js";
import {
  counterexampleResult,
  guardSummary,
  hungLine,
  replayCommand,
  stepLines,
} from "../explore/output.js";
import { cellWords, NOT_RACED_WORDS } from "../report/failure-words.js";
import type { BrokenView, GradeRowView, GradeView } from "../report/grade-view.js";
import { stepsView } from "../report/steps-view.js";
import { phaseView, reportView } from "../report/views.js";
import type { GradeResult } from "./grade.js";
import type { GuardProblem, RowGrade } from "./rows.js";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const deliveries = (n: number) => `${n} deliver${n === 1 ? "y" : "ies"}`;

/** A guard problem in one line. */
function problemWords(problem: GuardProblem): string {
  switch (problem.kind) {
    case "threw":
      return `the guard threw${problem.at ? ` at ${problem.at}` : ""}: ${problem.error} (${deliveries(problem.deliveries)})`;
    case "returned":
      return `the guard returned ${problem.returned}, not an outcome (${deliveries(problem.deliveries)})`;
    case "timed-out":
      return `the function timed out on copy ${problem.copies.join(", copy ")} (the guard never returned): ${deliveries(problem.deliveries)} logged process_start and no process_end`;
  }
}

/** What a person must read about a row's run, besides its failures. */
function rowNotes(row: RowGrade): string[] {
  return [
    ...row.problems.map(problemWords),
    ...(row.notRaced ? [NOT_RACED_WORDS[row.notRaced]] : []),
    ...row.invariants.map(
      (c) => `${c.name}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`,
    ),
    ...row.renamed.map(
      (r) =>
        `a finding: delivery ${r.requestId}'s charge_applied names ${r.logged}, the ledger holds ${r.recorded} (the guard wrote its charge around the ledger it was handed; a record that writes its own item says so: return { answer, chargeId }); graded on the ledger`,
    ),
  ];
}

export function gradeView(result: GradeResult): GradeView {
  const { guard, rows, explorer, column } = result;
  const what = guard.file
    ? `a guard file: ${path.relative(process.cwd(), guard.file.path) || guard.file.path}`
    : "a guard of the lab";
  const rowViews: GradeRowView[] = rows.map((r) => ({
    mark: !r.graded ? "–" : r.ok ? "✓" : "✗",
    row: r.name,
    text: cellWords(r),
    ...(r.reason ? { notGraded: r.reason } : {}),
    notes: rowNotes(r),
  }));
  const broken: BrokenView[] = rows
    .filter((r) => r.graded && !r.ok)
    .map((r, i) => ({
      title: `${r.name}: ${cellWords(r)}`,
      steps: stepsView(r.phase.timeline, r.phase.sent.messageIds),
      events: r.phase.timeline,
      messageIds: r.phase.sent.messageIds,
      after: [],
      phase: phaseView(r.phase, i + 1, rows.length),
    }));
  const counterexample = explorer.report && counterexampleView(explorer.report, result);
  if (counterexample) broken.push(counterexample);
  const gradedRows = rows.filter((r) => r.graded);
  const failedRows = gradedRows.filter((r) => !r.ok);
  const explorerText = explorer.hung
    ? hungLine(explorer.hung)
    : explorer.report
      ? guardSummary(explorer.report, 0)
      : "not run";
  const seconds = (result.durationMs / 1000).toFixed(0);
  const verdict = result.pass
    ? `PASS ${guard.name}: every graded row holds, and the explorer found no failure (${seconds} s)`
    : `FAIL ${guard.name}: ${[
        failedRows.length > 0
          ? `${failedRows.length} of ${gradedRows.length} graded rows failed (${failedRows.map((r) => r.name).join(", ")})`
          : "",
        explorer.ok
          ? ""
          : explorer.hung
            ? "the guard never returned in the explorer"
            : `the explorer found ${explorer.report?.kinds.join(", ")}`,
      ]
        .filter(Boolean)
        .join("; ")} (${seconds} s)`;
  return {
    guard: guard.name,
    what,
    backend: column.backend,
    rows: rowViews,
    explorer: { mark: explorer.ok ? "✓" : "✗", line: explorerText },
    broken,
    verdict: { pass: result.pass, text: verdict },
  };
}

function counterexampleView(report: GuardReport, result: GradeResult): BrokenView | undefined {
  const run = report.counterexample;
  const shown = counterexampleResult(report, result.column.backend);
  const phase = shown?.phases[0];
  if (!run || !shown || !phase) return undefined;
  const steps = stepLines(run);
  const view = reportView(shown).phases[0];
  if (!view) return undefined;
  const faults = run.faults === 0 ? "no fault" : plural(run.faults, "fault");
  const file = result.guard.file;
  return {
    title: `explorer: ${run.verdict.kinds.join(", ")}: the shortest counterexample (${faults}, ${run.steps.length} steps, ${run.copies} copies of ${run.orderId}): ${run.verdict.said}`,
    steps,
    events: run.events,
    messageIds: run.messageIds,
    after: file
      ? [`replay: ${replayCommand(run, `--guard-file ${path.relative(process.cwd(), file.path)}`)}`]
      : [],
    phase: { ...view, steps },
  };
}
