// The lab's errors, each with the exit code both commands end with (docs/design.md §7):
// 0 every check held, 1 a check failed, 2 a usage error, 3 the lab could not run.

export const EXIT = {
  held: 0,
  checkFailed: 1,
  usage: 2,
  couldNotRun: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in what the user typed: reported in one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode: ExitCode = EXIT.usage;
}

/** Something the lab needs is missing or broken: reported in one line, with what to do. */
export class LabError extends Error {
  override name = "LabError";
  readonly exitCode: ExitCode = EXIT.couldNotRun;
}

/**
 * An emulator call that failed: refused, timed out, or answered with an error the lab did not
 * expect. The message says what the lab was doing and where; `cause` keeps the SDK's error.
 */
export class EmulatorError extends LabError {
  override name = "EmulatorError";
  constructor(doing: string, endpoint: string, cause: unknown) {
    super(`${doing} failed at ${endpoint}: ${errorText(cause)}`, { cause });
  }
}

/** True for what the AWS SDK throws: a service's answer, or a connection that failed. */
export function isAwsCallFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { $metadata?: unknown; code?: string };
  return (
    e.$metadata !== undefined ||
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"].includes(e.code ?? "") ||
    e.name === "TimeoutError"
  );
}

/** An error's message, whatever was thrown. */
export const errorText = (err: unknown): string =>
  err instanceof Error ? err.message || err.name : String(err);

/** Runs emulator calls; an AWS call that fails comes out as an EmulatorError saying what failed. */
export async function talkingTo<T>(
  endpoint: string,
  doing: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isAwsCallFailure(err)) throw new EmulatorError(doing, endpoint, err);
    throw err;
  }
}
