// npm run grade: a guard (a guard file, or one of the lab's) against everything the lab has: the
// guard matrix's column (scenarios/guard-matrix.ts guardColumn, on the emulator, the file
// bundled into the worker) and the interleaving explorer (the guard in this process). One
// report: each failure mode ✓ or ✗, the explorer's line, and for each ✗ the shortest interleaving
// that broke it. grade-cli.ts parses the command line; the tests call the same functions.
import path from "node:path";
import { GUARDS, type GuardChoice, type GuardName } from "../../contract/settings.js";
import { COLUMN_ROWS, type ColumnRow, guardColumn } from "../../scenarios/guard-matrix.js";
import { packageWorker } from "../aws/build.js";
import { type GuardFile, guardFileAt } from "../aws/guard-file.js";
import type { DeployedLab } from "../aws/lab.js";
import { FAILURE_KINDS, type FailureKind } from "../check/verdicts.js";
import { UsageError } from "../common/errors.js";
import { quiet, type Say } from "../common/say.js";
import { type ExploreOptions, exploreGuard, type GuardReport } from "../explore/explore.js";
import { CopyHung } from "../explore/gates.js";
import { loadGuardFile } from "../explore/guard-file.js";
import { type Explored, gradedExplored } from "../explore/guards.js";
import { counterexampleResult, guardLine, hungLine, stepLines } from "../explore/output.js";
import { DEFAULT_BUDGET, FAIL_AT } from "../explore/schedule.js";
import type { Session } from "../explore/session.js";
import type { BrokenView, GradeRowView, GradeView } from "../report/grade-view.js";
import { stepsView } from "../report/steps-view.js";
import { phaseView, reportView } from "../report/views.js";
import type { PhaseResult, ScenarioResult } from "../scenario/result.js";
import { runScenario } from "../scenario/run.js";
import { looksLikeGuardFile } from "./options.js";

/**
 * The explorer's share of a grade: every schedule of two copies with at most one fault (a few
 * hundred for a guard that claims and charges), then random schedules of three copies.
 * default: 1,000 random (a grade in well under two minutes on MiniStack); small (the tests): 30.
 */
export const GRADE_BUDGETS = {
  default: { runs: 1_000, walkFaults: 1, walkLimit: 2_000 },
  small: { runs: 30, walkFaults: 1, walkLimit: 2_000 },
} as const;
export type GradeBudget = keyof typeof GRADE_BUDGETS;

/** What is graded: a lab guard by its name, or a guard file. */
export interface Graded {
  name: GuardChoice;
  file?: GuardFile;
}

/** The command line's word: a lab guard's name, or a path to a guard file. */
export function gradedFrom(given: string): Graded {
  if ((GUARDS as readonly string[]).includes(given)) return { name: given as GuardName };
  if (!looksLikeGuardFile(given)) {
    throw new UsageError(
      `"${given}" is neither a guard of the lab (${GUARDS.join(", ")}) nor a guard file (a path ending .ts, .mts, .js or .mjs)`,
    );
  }
  const file = guardFileAt(given);
  return { name: file.name, file };
}

/**
 * Before any emulator starts: a guard file type-checked and bundled into the worker (a compile
 * error is one line, file:line:col, exit 2), and loaded into this process for the explorer (a
 * default export that is not a function, exit 2). Its explorer entry.
 */
export async function prepareGraded(graded: Graded): Promise<Explored> {
  if (!graded.file) return gradedExplored(graded.name);
  await packageWorker(graded.file);
  return gradedExplored(graded.name, await loadGuardFile(graded.file));
}

export interface RowGrade extends ColumnRow {
  /** Graded: the phase held (no failure, and every message ended); not graded: exactly once. */
  ok: boolean;
  kinds: FailureKind[];
  /** The cell's text: "✓ exactly once", "✗ doubled 1". */
  text: string;
  /** The guard threw, returned something else, timed out; the race did not go as scripted. */
  notes: string[];
  phase: PhaseResult;
}

export interface ExplorerGrade {
  report?: GuardReport;
  /** A copy ran without reaching a gate for longer than a guard file may: it never returned. */
  hung?: CopyHung;
  ok: boolean;
}

export interface GradeResult {
  guard: Graded;
  column: ScenarioResult;
  rows: RowGrade[];
  explorer: ExplorerGrade;
  budget: GradeBudget;
  seed: number;
  /** Every graded row held, and the explorer found no failure. */
  pass: boolean;
  durationMs: number;
}

export interface GradeOptions {
  budget: GradeBudget;
  session: Session;
  seed?: number;
  /** Only these rows (by name): for a person fixing one row, and for the tests. */
  rows?: string[];
  say?: Say;
}

/**
 * The column on `labs` (each deployed with the guard file, if it is one) and the explorer in
 * this process, side by side: the column's phases mostly wait on the emulator.
 */
export async function gradeGuard(
  labs: DeployedLab[],
  graded: Graded,
  explored: Explored,
  options: GradeOptions,
): Promise<GradeResult> {
  const started = Date.now();
  const say = options.say ?? quiet;
  const full = guardColumn(graded.name);
  const rows = options.rows;
  if (rows) {
    const unknown = rows.filter((r) => !COLUMN_ROWS.some((c) => c.name === r));
    if (unknown.length > 0) {
      throw new UsageError(
        `--row: not a failure mode: ${unknown.join(", ")}; the rows are ${COLUMN_ROWS.map((c) => c.name).join(", ")}`,
      );
    }
  }
  const column = rows
    ? { ...full, phases: full.phases.filter((p) => rows.includes(p.cell?.row ?? "")) }
    : full;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const [result, explorer] = await Promise.all([
    runScenario(column, labs, say),
    explore(explored, options.session, options.budget, seed, say),
  ]);
  const graded_rows = result.phases.map((phase) => rowGrade(phase));
  return {
    guard: graded,
    column: result,
    rows: graded_rows,
    explorer,
    budget: options.budget,
    seed,
    pass: graded_rows.every((r) => !r.graded || r.ok) && explorer.ok,
    durationMs: Date.now() - started,
  };
}

async function explore(
  explored: Explored,
  session: Session,
  budget: GradeBudget,
  seed: number,
  say: Say,
): Promise<ExplorerGrade> {
  const size = GRADE_BUDGETS[budget];
  const options: ExploreOptions = {
    copies: 3,
    runs: size.runs,
    seed,
    budget: { ...DEFAULT_BUDGET },
    walkLimit: size.walkLimit,
    walkFaults: size.walkFaults,
    lanes: 4,
    failAt: FAIL_AT,
  };
  try {
    const report = await exploreGuard(session, explored, options);
    say(`explorer: ${report.schedules} schedules in ${(report.ms / 1000).toFixed(1)} s`);
    return { report, ok: report.failing === 0 };
  } catch (err) {
    if (err instanceof CopyHung) return { hung: err, ok: false };
    throw err;
  }
}

function rowGrade(phase: PhaseResult): RowGrade {
  const cell = phase.cell;
  const row = COLUMN_ROWS.find((r) => r.name === cell?.row);
  if (!cell || !row) throw new Error(`phase ${phase.name} is not a row of the guard's column`);
  const kinds = FAILURE_KINDS.filter((k) => cell.text.includes(k));
  // The lab's own invariants (every message ended, every charge in the ledger), when they fail.
  const invariants = phase.checks
    // (The row's verdict and its race note say the rest.)
    .filter(
      (c) =>
        !c.pass && !c.name.includes(" holds against ") && !c.name.endsWith(" raced as scripted"),
    )
    .map(
      (c) => `${c.name}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`,
    );
  return {
    ...row,
    ok: row.graded ? phase.pass : cell.ok,
    kinds,
    text: cell.text,
    notes: [...guardProblems(phase), ...(cell.note ? [cell.note] : []), ...invariants],
    phase,
  };
}

/** An error the lab injected (FAULT, a failpoint), not one of the guard's own. */
const INJECTED = /\(FAULT=|^failpoint /;

/**
 * What the guard did that a beginner's guard does: threw (where, in the file, from the source-
 * mapped stack), returned something that is not an outcome, or never returned (an invocation
 * that logged process_start and no process_end: Lambda timed it out). A copy FAULT crashes on
 * purpose (its first delivery, crash after claim) is not counted as timed out.
 */
export function guardProblems(phase: PhaseResult): string[] {
  const copyOf = (messageId: string) => phase.sent.messageIds.indexOf(messageId) + 1;
  const said = new Map<string, number>();
  const tell = (line: string) => said.set(line, (said.get(line) ?? 0) + 1);
  for (const e of phase.timeline) {
    if (e.type !== "process_end" || typeof e.error !== "string" || INJECTED.test(e.error)) continue;
    if (e.error.startsWith("the guard returned ")) tell(e.error);
    else if (typeof e.at === "string") tell(`the guard threw at ${e.at}: ${e.error}`);
    else tell(`the guard threw: ${e.error}`);
  }
  const lines = [...said].map(([line, n]) => `${line} (${n} deliver${n === 1 ? "y" : "ies"})`);
  const started = new Map<string, { messageId: string; attempt: number }>();
  for (const e of phase.timeline) {
    const key = `${e.requestId}/${e.messageId}`;
    if (e.type === "process_start")
      started.set(key, { messageId: e.messageId, attempt: Number(e.attempt) || 1 });
    if (e.type === "process_end") started.delete(key);
  }
  const crashes = phase.setup.fault === "crash-after-claim";
  const timedOut = [...started.values()].filter((s) => !(crashes && s.attempt === 1));
  if (timedOut.length > 0) {
    const copies = [...new Set(timedOut.map((s) => copyOf(s.messageId)))].sort();
    lines.push(
      `the function timed out on copy ${copies.join(", copy ")} (the guard never returned): ${timedOut.length} deliver${timedOut.length === 1 ? "y" : "ies"} logged process_start and no process_end`,
    );
  }
  return lines;
}

// ─── The report ──────────────────────────────────────────────────────────────────────────

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The grade as the report views draw it (text: grade-view.ts, HTML: html/grade-page.ts). */
export function gradeView(result: GradeResult): GradeView {
  const { guard, rows, explorer, column } = result;
  const what = guard.file
    ? `a guard file: ${path.relative(process.cwd(), guard.file.path) || guard.file.path}`
    : "a guard of the lab";
  const rowViews: GradeRowView[] = rows.map((r) => ({
    mark: !r.graded ? "–" : r.ok ? "✓" : "✗",
    row: r.name,
    text: r.kinds.length === 0 ? r.text.replace(/^✓ /, "") : r.text.replace(/^✗ /, ""),
    ...(r.reason ? { notGraded: r.reason } : {}),
    notes: r.notes,
  }));
  const broken: BrokenView[] = rows
    .filter((r) => r.graded && !r.ok)
    .map((r, i) => ({
      title: `${r.name}: ${r.text.replace(/^[✓✗] /, "")}`,
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
      ? explorerLine(explorer.report)
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

/** The explorer's line: N schedules, exactly once in all, or what failed in how many. */
function explorerLine(report: GuardReport): string {
  // guardLine's mark and padded name are the grade's own columns here.
  return guardLine(report, 0).replace(/^[✓✗!] \S*\s+/, "");
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
      ? [
          `replay: npm run explore -- --guard-file ${path.relative(process.cwd(), file.path)} --copies ${run.copies} --replay ${run.trace.map((c) => c.pick).join(",")}`,
        ]
      : [],
    phase: { ...view, steps },
  };
}
