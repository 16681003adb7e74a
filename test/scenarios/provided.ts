import type { Deployment } from "../../harness/deploy.js";
import type { Lab } from "../../harness/run.js";

export interface ProvidedLab {
  backend: Lab["backend"];
  deployment: Deployment;
}

declare module "vitest" {
  export interface ProvidedContext {
    lab: ProvidedLab;
  }
}
