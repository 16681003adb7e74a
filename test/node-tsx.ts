// How the tests start one of the lab's TypeScript commands: node with tsx's loader, in a single
// process. The tsx command starts a second node under itself: 0.2 s and a process more each
// time, and the suite starts about seventy commands. A timeout kills the command itself, too,
// not a parent that leaves it running.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../harness/common/paths.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** A file of harness/cli, by its name. */
export const harnessCli = (name: string) => path.join(PROJECT_ROOT, "harness", "cli", name);

/** The program and arguments that run a .ts file as `tsx <file> <args>` does. */
export function nodeTsx(file: string, args: readonly string[] = []): [string, string[]] {
  return [process.execPath, ["--import", TSX_LOADER, file, ...args]];
}
