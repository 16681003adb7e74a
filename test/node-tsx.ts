// How the tests start the lab's command line: `npx lab` as a user runs it (bin/lab.mjs); and a
// TypeScript fixture: node with tsx's loader, in a single process. The tsx command starts a second node under itself: 0.2 s and a process more each
// time, and the suite starts about seventy commands. A timeout kills the command itself, too,
// not a parent that leaves it running.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../harness/common/paths.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** `npx lab <args>` as a user runs it (bin/lab.mjs), without npx's own start-up. */
export const npxLab = (args: readonly string[] = []): [string, string[]] => [
  process.execPath,
  [path.join(PROJECT_ROOT, "bin", "lab.mjs"), ...args],
];

/** The program and arguments that run a .ts file as `tsx <file> <args>` does. */
export function nodeTsx(file: string, args: readonly string[] = []): [string, string[]] {
  return [process.execPath, ["--import", TSX_LOADER, file, ...args]];
}
