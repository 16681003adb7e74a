import type { GuardChoice } from "../contract/settings.js";
import { withId } from "../harness/check/checks.js";
import type { NotRaced } from "../harness/check/facts.js";
import { orderFailures, verdictOf } from "../harness/check/verdicts.js";
import type { PhaseFacts } from "../harness/scenario/scenario.js";
import { equal, type Phase, phase, type Scenario, scenario } from "../harness/scenario/scenario.js";
import { type FailureMode, GRADED_HOLD, MODES } from "./failure-modes.js";
import { whileTheFirstWasHeld } from "./slow-holder.js";

// ─── One column, graded: any guard, a guard file's too (npx lab grade) ───────────────────────

/**
 * The rows a guard of someone's own is graded on, and the two it cannot be: every graded row
 * expects no failure (every order charged exactly once under its own id).
 */
export const NOT_GRADED: Readonly<Record<string, string>> = {
  "malformed body":
    "no guard can: the key is already wrong when the guard gets it (the fix is upstream: send from a file, or parse strictly)",
  "a copy after the record expired":
    "a guard that forgets a completed order after RECORD_TTL_SECONDS charges a late copy again, by design (one that never forgets holds, in a table that only grows)",
};

export interface ColumnRow {
  name: string;
  graded: boolean;
  /** Why a row is not graded. */
  reason?: string;
}

export const COLUMN_ROWS: readonly ColumnRow[] = MODES.map((mode) => {
  const reason = NOT_GRADED[mode.name];
  return reason === undefined
    ? { name: mode.name, graded: true }
    : { name: mode.name, graded: false, reason };
});

/**
 * The matrix for one guard (a lab guard's name, or a guard file's when the lab was deployed with
 * it): every failure mode, one phase each, set up and sent exactly as the matrix does.
 * Graded rows check that no order failed; the two rows of NOT_GRADED are measured and reported,
 * never checked. The racing rows wait for their copies at most as long as the function may run,
 * so a guard that never lets copy 1 reach its charge, or makes copy 2 wait for copy 1, ends as a
 * row that says so (Cell.notRaced), not as a lab that could not run.
 */
export function guardColumn(guard: GuardChoice): Scenario {
  return scenario({
    name: "guard-matrix",
    title: `${guard} against every failure mode, graded`,
    story:
      `Each row is one run of the matrix's failure mode against ${guard}, judged from the charges ` +
      "the worker logged: ✓ every order charged exactly once under its own id; ✗ doubled, lost, " +
      "wrong key, dead-lettered or a different payload skipped silently. Two rows are measured, " +
      `not graded: ${Object.entries(NOT_GRADED)
        .map(([row, reason]) => `${row} (${reason})`)
        .join("; ")}.`,
    phases: MODES.map((mode) => columnPhase(mode, guard)),
  });
}

function columnPhase(mode: FailureMode, guard: GuardChoice): Phase {
  const failuresOf = mode.failures ?? orderFailures;
  const graded = NOT_GRADED[mode.name] === undefined;
  return phase(`${mode.name} × ${guard}`, {
    // A held copy's invocation runs longer here (GRADED_HOLD): someone's own guard is slower to
    // get a copy through than the lab's, and a busy machine slower still.
    setup: { ...mode.setup, ...(mode.gradedWorkload ? GRADED_HOLD : {}), guard },
    workload: mode.gradedWorkload ?? mode.workload,
    guardMayHang: true,
    cell: {
      row: mode.name,
      column: guard,
      judge: (facts) => {
        const verdict = verdictOf(failuresOf(facts), facts);
        const notRaced = mode.overlap ? howNotRaced(facts) : undefined;
        // A race that did not happen proves nothing: not a ✓, whatever was charged.
        return notRaced ? { ...verdict, ok: false, notRaced } : verdict;
      },
    },
    checks: (facts) =>
      graded
        ? [
            withId(
              "row-verdict",
              equal(
                `${guard} holds against ${mode.name}: no failure`,
                Object.keys(failuresOf(facts)).sort(),
                [],
              ),
            ),
            ...(mode.overlap
              ? [
                  withId(
                    "row-raced",
                    equal(`${mode.name} raced as scripted`, howNotRaced(facts) ?? "yes", "yes"),
                  ),
                ]
              : []),
          ]
        : [],
  });
}

/** How a racing row's run did not go as scripted, from the events; undefined when it did. */
export function howNotRaced(facts: PhaseFacts): NotRaced | undefined {
  const [first] = facts.sent.messageIds;
  const held = facts.events.some(
    (e) => e.messageId === first && e.type === "failpoint" && e.point === "before-charge",
  );
  if (!held) return "never-held";
  if (!whileTheFirstWasHeld(facts).pass) return "not-through";
  return undefined;
}
