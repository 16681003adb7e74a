/** A mistake in what the user typed: reported in one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Something the lab needs is missing or broken: reported in one line, with what to do. */
export class LabError extends Error {
  override name = "LabError";
}

/** An error's message, whatever was thrown. */
export const errorText = (err: unknown): string =>
  err instanceof Error ? err.message : String(err);
