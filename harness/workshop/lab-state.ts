// What `lab up` remembers so later commands find the same emulator: .lab/state.json. The file
// itself is read and written in common/lab-state-file.ts, where a scenario run can see it too.
import type { GuardFile } from "../aws/guard-file.js";
import type { BackendInfo } from "../backends/backend.js";
import { clearStateFile, readStateFile, writeStateFile } from "../common/lab-state-file.js";
import type { SentMessage } from "../drive/send.js";

export interface SendRecord {
  /**
   * When the send began, before its first message went out: no invocation of it can end
   * earlier, so `lab insights --since-send` holds all of it and nothing of the sends before it.
   */
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
  /** When `lab reset` last emptied the lab: the experiment since then is what insights reads. */
  resetAt?: number;
  sends: SendRecord[];
  /** The guard file `lab guard <file>` bundled into the worker, so `lab deploy` bundles it again. */
  guardFile?: GuardFile;
}

/**
 * Where the current experiment starts, for the commands that read the log group by default from
 * there (`insights`, `logs --order-id`): the last `lab reset`, else `lab up`.
 */
export function experimentStart(state: SavedLab): { at: number; by: "up" | "reset" } {
  return state.resetAt === undefined
    ? { at: state.upAt, by: "up" }
    : { at: state.resetAt, by: "reset" };
}

export function readState(): SavedLab | undefined {
  const state = readStateFile<SavedLab>();
  // A lab saved before backends said which emulator they are: only `lab up` starts MiniStack.
  if (state && state.backend.emulator === undefined) {
    state.backend.emulator = state.backend.name === "ministack" ? "ministack" : "unknown";
  }
  return state;
}

export const writeState = (state: SavedLab): void => writeStateFile(state);

export const clearState = clearStateFile;
