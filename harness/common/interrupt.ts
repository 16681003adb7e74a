// Ctrl-C (or a SIGTERM) while a command owns an emulator or tables: clean up, then exit 130, as
// a shell reports an interrupted command. One path for every command that starts something.
import { errorText } from "./errors.js";
import type { Say } from "./say.js";

export const EXIT_INTERRUPTED = 130;

/** A process a command started and must not leave running. */
export interface OwnedProcess {
  /** Stops it, and settles once it is gone. */
  stop(): Promise<void>;
  /** Kills it on the spot, synchronously: for a second Ctrl-C, or an exit. */
  kill(): void;
}

const owned = new Set<OwnedProcess>();
const waiting: (() => void)[] = [];
let interrupts = 0;

/** The command was interrupted: its clean-up, not its own end, decides how the process exits. */
export const wasInterrupted = (): boolean => interrupts > 0;

/** Settles at the next SIGINT or SIGTERM that a command handles (a hold waits for it). */
export function nextInterrupt(): Promise<void> {
  return new Promise((resolve) => waiting.push(resolve));
}

/**
 * Registers a process the moment it is started, before the command that asked for it knows of
 * it (an emulator still starting): an interrupt stops it too. One registered after an interrupt,
 * whose clean-up may be over, is killed at once. The returned function lets go of it (stopped).
 */
export function ownProcess(child: OwnedProcess): () => void {
  if (wasInterrupted()) child.kill();
  owned.add(child);
  return () => {
    owned.delete(child);
  };
}

/**
 * From now on, at a SIGINT or SIGTERM: say what is being cleaned up, run `cleanUp`, stop every
 * owned process, exit 130. Called before the command starts anything: with no listener, Node
 * ends the process on the spot, without `exit` listeners, and a detached emulator runs on. A
 * second signal during the clean-up kills the owned processes at once and exits: the user wants
 * out, but not at the price of an emulator left behind.
 */
export function cleanUpOnInterrupt(say: Say, what: string, cleanUp: () => Promise<void>): void {
  const interrupted = () => {
    interrupts += 1;
    for (const resume of waiting.splice(0)) resume();
    if (interrupts > 1) {
      say("interrupted again: stopping what the lab started now, without the rest of the clean-up");
      for (const child of owned) child.kill();
      process.exit(EXIT_INTERRUPTED);
    }
    say(`interrupted: ${what}`);
    void cleanUp()
      .catch((err: unknown) => say(`the clean-up failed: ${errorText(err)}`))
      .then(() => Promise.allSettled([...owned].map((child) => child.stop())))
      .finally(() => process.exit(EXIT_INTERRUPTED));
  };
  process.on("SIGINT", interrupted);
  process.on("SIGTERM", interrupted);
}
