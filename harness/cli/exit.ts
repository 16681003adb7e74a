// How every command ends: one line for a mistake or a problem, a stack trace only for a bug.
// The codes are the one table in common/errors.ts.
import { CommanderError } from "commander";
import { EXIT, isAwsCallFailure, LabError, UsageError } from "../common/errors.js";
import { wasInterrupted } from "../common/interrupt.js";

/**
 * Runs a command and exits with its code (or exitWith's, when it throws). A command that never
 * finishes must not exit 0: when the event loop empties while the command still awaits a promise
 * nothing will settle (a probe or an import whose answer was lost), Node ends the process with
 * code 0 and nothing printed, which a caller reads as success. That is how `lab doctor` once
 * exited 0 with an empty stdout under load. Here it exits couldNotRun instead, and says so, with
 * `stillWaiting` naming what it was waiting for when the command can tell.
 */
export function runCommand(
  command: string | (() => string),
  work: () => Promise<number>,
  stillWaiting: () => string[] = () => stillWaitingFor(),
): void {
  const name = () => (typeof command === "string" ? command : command());
  let finished = false;
  process.on("exit", (code) => {
    if (finished || code !== EXIT.held) return;
    // An exit listener may change the code the process ends with; nothing async runs here.
    process.exitCode = EXIT.couldNotRun;
    const waiting = stillWaiting();
    process.stderr.write(
      `${name()}: stopped before it finished: it was still waiting, and nothing left could answer` +
        `${waiting.length > 0 ? ` (still waiting for ${waiting.join(", ")})` : ""}\n`,
    );
  });
  // Interrupted, the command's own end (a result, or the error of work its clean-up cut short)
  // does not decide: the interrupt's clean-up goes on and exits 130 (common/interrupt.ts).
  Promise.resolve()
    .then(work)
    .then(
      (code) => {
        finished = true;
        if (!wasInterrupted()) process.exit(code);
      },
      (err: unknown) => {
        finished = true;
        if (!wasInterrupted()) exitWith(name())(err);
      },
    );
}

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

/** What the running command waits for, should it stop before it finished (doctor's probes). */
let stillWaitingFor = (): string[] => [];

/** Names what the command is waiting for, for the line runCommand prints if it never finishes. */
export function waitingFor(what: () => string[]): void {
  stillWaitingFor = what;
}

/** The exit code the command's action ended with (a check that failed: 1); 0 unless it said. */
let actionExitCode: number = EXIT.held;
export const commandExitCode = (): number => actionExitCode;

/** An action whose number is the command's exit code: scenario, grade, explore, bench. */
export function exitsWith<A extends unknown[]>(
  action: (...args: A) => Promise<number>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    actionExitCode = await action(...args);
  };
}
