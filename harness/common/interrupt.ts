// Ctrl-C (or a SIGTERM) while a command owns an emulator or tables: clean up, then exit 130, as
// a shell reports an interrupted command. One path for every command that starts something.
import type { Say } from "./say.js";

/** On the first SIGINT or SIGTERM: say what is being cleaned up, run `cleanUp`, exit 130. */
export function cleanUpOnInterrupt(say: Say, what: string, cleanUp: () => Promise<void>): void {
  const interrupted = () => {
    say(`interrupted: ${what}`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
}
