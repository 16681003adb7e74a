// How both commands end: one line for a mistake or a problem, a stack trace only for a bug.
import { CommanderError } from "commander";
import { LabError, UsageError } from "../common/errors.js";

export function exitWith(command: string, labErrorCode: number): (err: unknown) => never {
  return (err) => {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2); // commander printed it
    if (err instanceof UsageError || err instanceof LabError) {
      console.error(`${command}: ${err.message}`);
      process.exit(err instanceof UsageError ? 2 : labErrorCode);
    }
    console.error(`${command}: unexpected error: ${(err as Error).stack ?? String(err)}`);
    process.exit(labErrorCode);
  };
}
