// Grading a guard (a guard file, or one of the lab's) against everything the lab has: the guard
// matrix's column (scenarios/guard-matrix.ts guardColumn, on the emulator, the file bundled into
// the worker) and the interleaving explorer (the guard in this process). The result is data:
// each row's failures by kind (rows.ts), the explorer's report; view.ts draws it.
import type { GuardChoice } from "../../contract/settings.js";
import { COLUMN_ROWS, guardColumn } from "../../scenarios/guard-column.js";
import { packageWorker } from "../aws/build.js";
import type { GuardFile } from "../aws/guard-file.js";
import { parseGuardOrFile } from "../aws/guard-word.js";
import type { DeployedLab } from "../aws/lab.js";
import { UsageError } from "../common/errors.js";
import { quiet, type Say } from "../common/say.js";
import { DEFAULT_BUDGET, FAIL_AT } from "../explore/budget.js";
import { EXPLORE_BUDGETS, type GRADE_BUDGET_NAMES } from "../explore/budgets.js";
import { type ExploreOptions, exploreGuard, type GuardReport } from "../explore/explore.js";
import { CopyHung } from "../explore/gates.js";
import { loadGuardFile } from "../explore/guard-file.js";
import { type Explored, gradedExplored } from "../explore/guards.js";
import type { Session } from "../explore/session.js";
import type { ScenarioResult } from "../scenario/result.js";
import { runScenario } from "../scenario/run.js";
import { type RowGrade, rowGrade } from "./rows.js";

/** The explorer's share of a grade (EXPLORE_BUDGETS): the command line's, or the tests' glance. */
export type GradeBudget = (typeof GRADE_BUDGET_NAMES)[number] | "glance";

/** What is graded: a lab guard by its name, or a guard file. */
export interface Graded {
  name: GuardChoice;
  file?: GuardFile;
}

/** The command line's word (the one guard word of every command): a lab guard, or a guard file. */
export function gradedFrom(given: string): Graded {
  const guard = parseGuardOrFile(given);
  return typeof guard === "string" ? { name: guard } : { name: guard.name, file: guard };
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
  const graded_rows = result.phases.map(rowGrade);
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
  const size = EXPLORE_BUDGETS[budget];
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
