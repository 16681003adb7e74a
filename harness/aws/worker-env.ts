// The worker's configuration as the harness sets it (design §4's environment variables).
import type { Fault, GuardName, ParseMode } from "../../contract/settings.js";
import type { LabNames } from "./names.js";

export interface WorkerEnv {
  guard?: GuardName;
  parseMode?: ParseMode;
  fault?: Fault;
  workMs?: number;
  raceWindowMs?: number;
  leaseMs?: number;
}

export function workerEnvironment(names: LabNames, env: WorkerEnv): Record<string, string> {
  const variables: Record<string, string> = {
    CLAIMS_TABLE: names.claimsTable,
    LEDGER_TABLE: names.ledgerTable,
    POWERTOOLS_TABLE: names.powertoolsTable,
    GUARD: env.guard ?? "off",
    PARSE_MODE: env.parseMode ?? "lenient",
    FAULT: env.fault ?? "none",
    WORK_MS: String(env.workMs ?? 0),
    // MiniStack runs the function on the host's Node 20, where the SDK prints a multi-line
    // "upgrade to Node 22" warning into the function's logs at every cold start.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
  if (env.raceWindowMs !== undefined) variables.RACE_WINDOW_MS = String(env.raceWindowMs);
  if (env.leaseMs !== undefined) variables.LEASE_MS = String(env.leaseMs);
  return variables;
}
