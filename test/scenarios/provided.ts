import type { Deployment } from "../../harness/aws/deploy.js";
import type { BackendInfo } from "../../harness/backends/backend.js";

/**
 * What the test setup shares with every test file: one backend, and the lab deployed on it once
 * per lane, so test files can run scenarios at once. Plain data: each file makes its own connection.
 */
export interface SharedLab {
  backend: BackendInfo;
  /** By lane number; null where no test file runs on this backend (lanes.ts lanesUsed). */
  lanes: (Deployment | null)[];
}

declare module "vitest" {
  export interface ProvidedContext {
    lab: SharedLab;
  }
}
