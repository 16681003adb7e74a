// The guard word, read the same way by every command: a guard of the lab by its name (or the
// article's IDEMPOTENCY values, 0 and 1), a comma-separated list of them, or a guard file's path.
import { GUARD_WORDS, GUARDS, type GuardName, guardFromWord } from "../../contract/settings.js";
import { closest } from "../common/closest.js";
import { UsageError } from "../common/errors.js";
import { type GuardFile, guardFileAt, looksLikeGuardFile } from "./guard-file.js";

const FILE_FORM = "or a guard file (a path ending .ts, .mts, .js or .mjs)";

function notAGuard(value: string, alsoFiles: boolean): UsageError {
  const hint = closest(value, GUARDS);
  return new UsageError(
    `"${value}" is not a guard; use ${GUARD_WORDS.join(", ")}${alsoFiles ? `, ${FILE_FORM}` : ""}${hint.length ? ` (did you mean ${hint[0]}?)` : ""}`,
  );
}

/** A guard of the lab. */
export function parseGuard(value: string): GuardName {
  const guard = guardFromWord(value.trim());
  if (!guard) throw notAGuard(value, false);
  return guard;
}

/** Guards of the lab, comma-separated; each once, in the order first given. */
export function parseGuardList(value: string): GuardName[] {
  return [...new Set(value.split(",").map(parseGuard))];
}

/** A guard of the lab, or a guard file (found and named well; not yet type-checked or built). */
export function parseGuardOrFile(value: string): GuardName | GuardFile {
  if (looksLikeGuardFile(value)) return guardFileAt(value);
  const guard = guardFromWord(value.trim());
  if (!guard) throw notAGuard(value, true);
  return guard;
}
