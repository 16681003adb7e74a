// A cell's and a row's failures in words: "✓ exactly once", "✗ doubled 3", "✗ lost 1, wrong key 1",
// "✗ not raced". The one place that turns check/failures.ts's kinds into text.
import type { Cell, NotRaced } from "../check/facts.js";
import { type Failures, kindsOf } from "../check/failures.js";

/** "doubled 3, lost 1"; a kind that is never more than one is said alone; "" for none. */
export function failureWords(failures: Failures): string {
  return kindsOf(failures)
    .map((kind) => (kind === "mismatch skipped silently" ? kind : `${kind} ${failures[kind]}`))
    .join(", ");
}

/** What a cell found, without its mark: "exactly once", "doubled 3", "not raced". */
export function cellWords(cell: Pick<Cell, "failures" | "notRaced">): string {
  if (cell.notRaced) return "not raced";
  return failureWords(cell.failures) || "exactly once";
}

/** The cell as the matrix prints it: its mark, then its words. */
export const cellText = (cell: Pick<Cell, "ok" | "failures" | "notRaced">): string =>
  `${cell.ok ? "✓" : "✗"} ${cellWords(cell)}`;

/** Why a racing row proves nothing: what did not happen as scripted. */
export const NOT_RACED_WORDS: Record<NotRaced, string> = {
  "never-held":
    "copy 1 never reached its charge (before-charge) on its first delivery, so it could not be held there while copy 2 came",
  "not-through": "copy 2 did not get through the guard while copy 1 was held before its charge",
};
