import type { Emulator } from "./emulators.js";

export const BACKEND_NAMES = ["endpoint", "testcontainers", "ministack"] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** An emulator the lab can talk to, and how to let go of it when the run is over. */
export interface RunningBackend {
  name: BackendName;
  /** Which emulator answers, from its health answer: what it does differently (emulators.ts). */
  emulator: Emulator;
  version: string;
  endpoint: string;
  /** Why auto chose it, in words a workshop attendee can read aloud. */
  reason: string;
  /** The lab started this emulator in Docker itself, so its endpoint's host is trusted. */
  startedByLab?: boolean;
  /** Docker's label filter ("key=value") for every container this backend started. */
  containersLabel?: string;
  /** Stops what the lab started; a no-op for an emulator the user runs. */
  stop(): Promise<void>;
  /**
   * Lets an emulator the lab started outlive this process (`lab up`, once it is remembered):
   * until then an interrupt or this process's exit stops it.
   */
  keep?(): void;
  /** The emulator's process, when the lab started it as a child (for measurements). */
  pid?: number;
}

/** What a report, a saved lab or a test needs to know of a backend: plain data, no process. */
export type BackendInfo = Pick<
  RunningBackend,
  "name" | "emulator" | "version" | "endpoint" | "startedByLab"
>;

/** A running backend as data, for a report or a saved lab. */
export const backendInfo = (backend: RunningBackend): BackendInfo => ({
  name: backend.name,
  emulator: backend.emulator,
  version: backend.version,
  endpoint: backend.endpoint,
  startedByLab: backend.startedByLab ?? false,
});
