// The one handle on a lab that every command, scenario and test works with: which emulator it
// runs on, a connection to it, and what deploy made there. Who started the emulator, and who
// stops it, is the business of whoever opened the lab (scenario/open-lab.ts for a run,
// workshop/workshop.ts for `npx lab`, the test setup for `npm test`).
import type { BackendInfo } from "../backends/backend.js";
import type { Connection } from "./connection.js";
import type { Deployment } from "./deploy.js";

export interface DeployedLab {
  backend: BackendInfo;
  conn: Connection;
  deployment: Deployment;
}
