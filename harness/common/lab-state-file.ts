// .lab/state.json, the file `lab up` writes, as plain JSON. It lives down here so that a
// scenario run (harness/scenario) can ask whether a workshop lab is up, and where, without
// importing the workshop; what else the file holds is workshop/lab-state.ts's business.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LabError } from "./errors.js";
import { LAB_DIR } from "./paths.js";

export const STATE_FILE = path.join(LAB_DIR, "state.json");

/** What any layer may read of a saved workshop lab: the emulator it runs on and its prefix. */
export interface SavedLabPlace {
  backend: { endpoint: string };
  prefix: string;
}

/** The saved state, or undefined when no lab is up; unreadable JSON is one line saying what to do. */
export function readStateFile<T extends SavedLabPlace = SavedLabPlace>(): T | undefined {
  if (!existsSync(STATE_FILE)) return undefined;
  try {
    return JSON.parse(readFileSync(STATE_FILE, "utf8")) as T;
  } catch {
    throw new LabError(`${STATE_FILE} is not readable JSON: delete it, then run "npx lab up"`);
  }
}

export function writeStateFile(state: SavedLabPlace): void {
  mkdirSync(LAB_DIR, { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

export function clearStateFile(): void {
  rmSync(STATE_FILE, { force: true });
}
