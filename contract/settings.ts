// The worker is configured only through its environment, so the harness can switch guards
// with UpdateFunctionConfiguration, the way the article's set-idempotency.ps1 did.

export const GUARDS = ["off", "naive", "claim", "lease", "powertools"] as const;
export type GuardName = (typeof GUARDS)[number];

export const PARSE_MODES = ["lenient", "strict"] as const;
export type ParseMode = (typeof PARSE_MODES)[number];

export const FAULTS = [
  "none",
  "crash-after-claim",
  "fail-charge-once",
  "fail-charge-always",
] as const;
export type Fault = (typeof FAULTS)[number];

export interface WorkerConfig {
  guard: GuardName;
  parseMode: ParseMode;
  fault: Fault;
  workMs: number;
  raceWindowMs: number;
  leaseMs: number;
  claimsTable: string;
  ledgerTable: string;
  powertoolsTable: string;
}

export function readConfig(env: Record<string, string | undefined>): WorkerConfig {
  return {
    guard: oneOf("GUARD", env.GUARD ?? fromIdempotencySwitch(env.IDEMPOTENCY), GUARDS),
    parseMode: oneOf("PARSE_MODE", env.PARSE_MODE ?? "lenient", PARSE_MODES),
    fault: oneOf("FAULT", env.FAULT ?? "none", FAULTS),
    workMs: milliseconds("WORK_MS", env.WORK_MS, 0),
    raceWindowMs: milliseconds("RACE_WINDOW_MS", env.RACE_WINDOW_MS, 0),
    leaseMs: milliseconds("LEASE_MS", env.LEASE_MS, 30_000),
    claimsTable: env.CLAIMS_TABLE ?? "aws-lab-sqs-idempotency",
    ledgerTable: env.LEDGER_TABLE ?? "aws-lab-sqs-idempotency-charges",
    powertoolsTable: env.POWERTOOLS_TABLE ?? "aws-lab-sqs-idempotency-powertools",
  };
}

// The original lab's switch: IDEMPOTENCY=1 turned the conditional claim on.
function fromIdempotencySwitch(value: string | undefined): string {
  if (value === undefined || value === "0") return "off";
  if (value === "1") return "claim";
  throw new Error(`IDEMPOTENCY must be 0 or 1, got "${value}"`);
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.join(", ")}; got "${value}"`);
}

function milliseconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0)
    throw new Error(`${name} must be a whole number, got "${value}"`);
  return ms;
}
