import type { Deployment } from "../../harness/aws/deploy.js";
import type { BackendInfo } from "../../harness/backends/backend.js";

/**
 * What the test setup shares with every test file: one backend, and the lab deployed on it on
 * lane 0. Plain data: each file makes its own connection, and deploys its other lanes itself.
 */
export interface SharedLab {
  backend: BackendInfo;
  /** Lane 0: the article's scenarios (lanes.ts). */
  article: Deployment;
  /** Lane n > 0 is deployed under this prefix with lanes.ts's laneSuffix(n) after it. */
  lanePrefix: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    lab: SharedLab;
  }
}
