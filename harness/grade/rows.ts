// One row of a grade as data: the matrix cell's failures by kind, whether the race happened as
// scripted, what the guard itself did wrong (threw, returned a non-outcome, never returned), and
// the lab's invariants that failed. Read from typed fields only: the cell, the checks' ids and
// process_end's errorKind; view.ts says it in words.
import { COLUMN_ROWS, type ColumnRow } from "../../scenarios/guard-column.js";
import type { RenamedCharge } from "../check/checks.js";
import type { Check, NotRaced } from "../check/facts.js";
import type { Failures } from "../check/failures.js";
import type { PhaseResult } from "../scenario/result.js";

/** Something the guard did that a beginner's guard does, with how many deliveries did it. */
export type GuardProblem =
  | { kind: "threw"; error: string; at?: string; deliveries: number }
  | { kind: "returned"; returned: string; deliveries: number }
  /** Logged process_start and no process_end: Lambda timed it out. Copies numbered as sent. */
  | { kind: "timed-out"; copies: number[]; deliveries: number };

export interface RowGrade extends ColumnRow {
  /** Graded: the phase held (no failure, and every message ended); not graded: exactly once. */
  ok: boolean;
  failures: Failures;
  notRaced?: NotRaced;
  problems: GuardProblem[];
  /** The lab's own invariants (every message ended, every charge in the ledger) that failed. */
  invariants: Check[];
  /** Charge lines that name another chargeId than the ledger holds: a finding, not a failure. */
  renamed: RenamedCharge[];
  phase: PhaseResult;
}

export function rowGrade(phase: PhaseResult): RowGrade {
  const cell = phase.cell;
  const row = COLUMN_ROWS.find((r) => r.name === cell?.row);
  if (!cell || !row) throw new Error(`phase ${phase.name} is not a row of the guard's column`);
  return {
    ...row,
    ok: row.graded ? phase.pass : cell.ok,
    failures: cell.failures,
    ...(cell.notRaced ? { notRaced: cell.notRaced } : {}),
    problems: guardProblems(phase),
    invariants: phase.checks.filter(
      (c) => !c.pass && (c.id === "messages-ended" || c.id === "charges-in-ledger"),
    ),
    renamed: phase.renamedCharges ?? [],
    phase,
  };
}

/**
 * What the guard did wrong, from process_end's errorKind: a throw of its own (not a fault the lab
 * injected), a value that is not an outcome, or no process_end at all. A copy FAULT crashes on
 * purpose (its first delivery, crash after claim) is not counted as timed out.
 */
export function guardProblems(phase: PhaseResult): GuardProblem[] {
  const problems = new Map<string, GuardProblem>();
  const count = (key: string, problem: GuardProblem) => {
    const seen = problems.get(key);
    if (seen) seen.deliveries += 1;
    else problems.set(key, problem);
  };
  for (const e of phase.timeline) {
    if (e.type !== "process_end") continue;
    if (e.errorKind === "returned")
      count(`returned ${e.returned}`, {
        kind: "returned",
        returned: String(e.returned),
        deliveries: 1,
      });
    if (e.errorKind === "threw") {
      const { error, at } = e;
      count(`threw ${at} ${error}`, { kind: "threw", error, ...(at ? { at } : {}), deliveries: 1 });
    }
  }
  const started = new Map<string, { messageId: string; attempt: number }>();
  for (const e of phase.timeline) {
    const key = `${e.requestId}/${e.messageId}`;
    if (e.type === "process_start")
      started.set(key, { messageId: e.messageId, attempt: Number(e.attempt) || 1 });
    if (e.type === "process_end") started.delete(key);
  }
  const crashes = phase.setup.fault === "crash-after-claim";
  const timedOut = [...started.values()].filter((s) => !(crashes && s.attempt === 1));
  const copyOf = (messageId: string) => phase.sent.messageIds.indexOf(messageId) + 1;
  const list = [...problems.values()];
  if (timedOut.length > 0) {
    const copies = [...new Set(timedOut.map((s) => copyOf(s.messageId)))].sort();
    list.push({ kind: "timed-out", copies, deliveries: timedOut.length });
  }
  return list;
}
