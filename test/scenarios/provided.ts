import type { Deployment } from "../../harness/aws/deploy.js";
import type { Lab } from "../../harness/scenario/result.js";

/** One backend, and the lab deployed on it once per lane, so test files can run scenarios at once. */
export interface ProvidedLab {
  backend: Lab["backend"];
  lanes: Deployment[];
}

declare module "vitest" {
  export interface ProvidedContext {
    lab: ProvidedLab;
  }
}
