// How both commands end: one line for a mistake or a problem, a stack trace only for a bug.
// The codes are the one table in common/errors.ts.
import { CommanderError } from "commander";
import { EXIT, isAwsCallFailure, LabError, UsageError } from "../common/errors.js";

export function exitWith(command: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof CommanderError) {
      process.exit(err.exitCode === 0 ? EXIT.held : EXIT.usage); // commander printed it
    }
    if (err instanceof UsageError || err instanceof LabError) {
      console.error(`${command}: ${err.message}`);
      process.exit(err.exitCode);
    }
    if (isAwsCallFailure(err)) {
      // An emulator that died or refused mid-run is a problem of the machine, not a bug.
      console.error(
        `${command}: the emulator failed: ${(err as Error).message || (err as Error).name}`,
      );
      process.exit(EXIT.couldNotRun);
    }
    console.error(`${command}: unexpected error: ${(err as Error).stack ?? String(err)}`);
    process.exit(EXIT.couldNotRun);
  };
}
