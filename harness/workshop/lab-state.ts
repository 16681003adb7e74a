// What `lab up` remembers so later commands find the same emulator: .lab/state.json.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BackendInfo } from "../backends/backend.js";
import { LabError } from "../common/errors.js";
import { LAB_DIR } from "../common/paths.js";
import type { SentMessage } from "../drive/send.js";

export interface SendRecord {
  at: number;
  /** Each message as sent, with the order it was meant to be (a mangled body hides it). */
  messages: SentMessage[];
}

/** The lab `up` started, as saved in .lab/state.json for the commands that follow. */
export interface SavedLab {
  /** pid: the MiniStack `up` started, which `down` stops. */
  backend: BackendInfo & { pid?: number };
  prefix: string;
  upAt: number;
  sends: SendRecord[];
}

const STATE_FILE = path.join(LAB_DIR, "state.json");

export function readState(): SavedLab | undefined {
  if (!existsSync(STATE_FILE)) return undefined;
  try {
    return JSON.parse(readFileSync(STATE_FILE, "utf8")) as SavedLab;
  } catch {
    throw new LabError(
      `${STATE_FILE} is not readable JSON: delete it, then run "npm run lab -- up"`,
    );
  }
}

export function writeState(state: SavedLab): void {
  mkdirSync(LAB_DIR, { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

export function clearState(): void {
  rmSync(STATE_FILE, { force: true });
}
