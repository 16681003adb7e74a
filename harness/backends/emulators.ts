// What differs between the emulators in ways the harness must plan for (not work around), read
// in one place: a backend says which emulator it is (a typed field, from its health answer), and
// its profile says what that means.
import type { Health } from "./health.js";

export type Emulator = Health["product"];

export interface EmulatorProfile {
  /**
   * How many invocations the queue's event source mapping runs at once: LocalStack 4.14.0 has
   * one poller thread per mapping that waits for each invocation; MiniStack 1.5.33 runs up to
   * five batches; real AWS starts with five pollers. This many warm environments are enough.
   */
  mappingConcurrency: number;
  /**
   * Its function's last log lines can stay unshipped after an invocation ends, until the harness
   * nudges them out (observe/late-logs.ts): MiniStack's.
   */
  lateLogs: boolean;
  /** Lanes that run side by side on it: LocalStack's serial mapping makes more only wait. */
  lanes: number;
  /** The clocks the tests and `npx lab scenario` deploy with (aws/timings.ts). */
  clocks: "standard" | "localstack";
}

const PROFILES: Record<Emulator, EmulatorProfile> = {
  localstack: { mappingConcurrency: 1, lateLogs: false, lanes: 2, clocks: "localstack" },
  ministack: { mappingConcurrency: 5, lateLogs: true, lanes: 4, clocks: "standard" },
  // An emulator that answers LocalStack's health endpoint but is neither: AWS's own numbers.
  unknown: { mappingConcurrency: 5, lateLogs: false, lanes: 4, clocks: "standard" },
};

export const profileOf = (backend: { emulator: Emulator }): EmulatorProfile =>
  PROFILES[backend.emulator];

export const isLocalStack = (backend: { emulator: Emulator }): boolean =>
  backend.emulator === "localstack";

export const mappingConcurrency = (backend: { emulator: Emulator }): number =>
  profileOf(backend).mappingConcurrency;
