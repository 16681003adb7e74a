// The worker's settings (docs/design.md §4), in one place for everyone: the worker reads them
// from its environment, the harness writes them there. The worker is configured only through
// its environment, so the harness can switch guards with UpdateFunctionConfiguration, the way
// the article's set-idempotency.ps1 did.
import { parseFailpoints } from "./failpoints.js";
import { namesFor } from "./names.js";

export const GUARDS = ["off", "naive", "claim", "lease", "powertools"] as const;
export type GuardName = (typeof GUARDS)[number];

/**
 * A guard of the user's own (docs/design.md §4, "Guard files"): GUARD names the file, and the
 * function's bundle carries it. Only its base name travels in the environment and the logs.
 */
export type GuardFileName = `${string}.${"ts" | "mts" | "js" | "mjs"}`;
export const GUARD_FILE_NAME = /^[A-Za-z0-9_.-]{1,80}\.(ts|mts|js|mjs)$/;
export const isGuardFileName = (value: string): value is GuardFileName =>
  GUARD_FILE_NAME.test(value);

/** What GUARD may say: a guard of the lab, or a guard file's name. */
export type GuardChoice = GuardName | GuardFileName;

export const PARSE_MODES = ["lenient", "strict"] as const;
export type ParseMode = (typeof PARSE_MODES)[number];

export const FAULTS = [
  "none",
  "crash-after-claim",
  "fail-charge-once",
  "fail-charge-always",
] as const;
export type Fault = (typeof FAULTS)[number];

/**
 * lease only: its defences against a holder that is still charging when its lease runs out.
 * both: the lease lasts at least as long as the invocation may run, and the charge is fenced
 * (recorded only while the copy still owns the lease); fence: only the fence; none: neither,
 * the lease as first written, which charges twice when the work outlives it.
 */
export const LEASE_DEFENCES = ["both", "fence", "none"] as const;
export type LeaseDefences = (typeof LEASE_DEFENCES)[number];

/**
 * The payment provider's idempotency key (docs/design.md §4): none, a new charge every call; or a
 * key the provider keeps one charge per, and replays for every later call with the same key.
 * orderId is the right key; messageId is the common mistake (every copy is a new message).
 */
export const PROVIDER_KEYS = ["none", "orderId", "messageId"] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];

/**
 * What the worker does with a batch in which a record failed. report: returns that record in
 * batchItemFailures, and SQS retries only it; throw: fails the whole invocation, and SQS
 * retries every record of the batch, the good ones too.
 */
export const BATCH_FAILURES = ["report", "throw"] as const;
export type BatchFailures = (typeof BATCH_FAILURES)[number];

/** What a scenario phase or a workshop step chooses. */
export interface WorkerSettings {
  guard: GuardChoice;
  parseMode: ParseMode;
  fault: Fault;
  /** Simulated work before the charge (the article used 4000). */
  workMs: number;
  /** naive only: the pause between its read and its write. */
  raceWindowMs?: number;
  /** lease only: how long a claim is held before another copy may take it over. */
  leaseMs?: number;
  /** lease only: see LEASE_DEFENCES. */
  leaseDefences?: LeaseDefences;
  /** See PROVIDER_KEYS. */
  providerKey?: ProviderKey;
  /**
   * lease and powertools: how long a COMPLETED record is remembered (Powertools'
   * expiresAfterSeconds). A copy that arrives later is treated as new, and charged again.
   */
  recordTtlSeconds?: number;
  /** See BATCH_FAILURES. */
  batchFailures?: BatchFailures;
  /** Failpoints (contract/failpoints.ts), e.g. "after-claim=pause@copy1"; none unless set. */
  failpoints?: string;
}

export const DEFAULT_SETTINGS: Readonly<WorkerSettings> = {
  guard: "off",
  parseMode: "lenient",
  fault: "none",
  workMs: 0,
};
const DEFAULT_RACE_WINDOW_MS = 0;
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_RECORD_TTL_SECONDS = 3_600; // Powertools' default: one hour

export interface TableNames {
  claimsTable: string;
  ledgerTable: string;
  powertoolsTable: string;
  /** Where a paused copy says it got to, and the harness releases it (failpoints). */
  failpointsTable: string;
}

/** Everything the worker runs with: the settings, each one set, and its tables. */
export interface WorkerConfig extends Required<WorkerSettings>, TableNames {}

/** The article's switch, IDEMPOTENCY=0/1, beside the guard names: "1" is the conditional claim. */
export const GUARD_WORDS = [...GUARDS, "0", "1"] as const;
export function guardFromWord(word: string): GuardName | undefined {
  if (word === "0") return "off";
  if (word === "1") return "claim";
  return (GUARDS as readonly string[]).includes(word) ? (word as GuardName) : undefined;
}

/** The settings as environment variables; an unset optional setting is left out. */
export function settingsToEnv(settings: Partial<WorkerSettings>): Record<string, string> {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  return {
    GUARD: s.guard,
    PARSE_MODE: s.parseMode,
    FAULT: s.fault,
    WORK_MS: String(s.workMs),
    ...(s.raceWindowMs === undefined ? {} : { RACE_WINDOW_MS: String(s.raceWindowMs) }),
    ...(s.leaseMs === undefined ? {} : { LEASE_MS: String(s.leaseMs) }),
    ...(s.leaseDefences === undefined ? {} : { LEASE_DEFENCES: s.leaseDefences }),
    ...(s.providerKey === undefined ? {} : { PROVIDER_KEY: s.providerKey }),
    ...(s.recordTtlSeconds === undefined ? {} : { RECORD_TTL_SECONDS: String(s.recordTtlSeconds) }),
    ...(s.batchFailures === undefined ? {} : { BATCH_FAILURES: s.batchFailures }),
    ...(s.failpoints ? { FAILPOINTS: s.failpoints } : {}),
  };
}

export function tablesToEnv(tables: TableNames): Record<string, string> {
  return {
    CLAIMS_TABLE: tables.claimsTable,
    LEDGER_TABLE: tables.ledgerTable,
    POWERTOOLS_TABLE: tables.powertoolsTable,
    FAILPOINTS_TABLE: tables.failpointsTable,
  };
}

type Env = Record<string, string | undefined>;

/** The settings an environment holds, checked; a bad value throws, naming the variable. */
export function settingsFromEnv(env: Env): WorkerSettings {
  const optional = (name: string) =>
    env[name] === undefined ? undefined : milliseconds(name, env[name], 0);
  const raceWindowMs = optional("RACE_WINDOW_MS");
  const leaseMs = optional("LEASE_MS");
  const optionalWord = <T extends string>(name: string, allowed: readonly T[]) =>
    env[name] === undefined ? undefined : oneOf(name, env[name], allowed);
  const leaseDefences = optionalWord("LEASE_DEFENCES", LEASE_DEFENCES);
  const providerKey = optionalWord("PROVIDER_KEY", PROVIDER_KEYS);
  const batchFailures = optionalWord("BATCH_FAILURES", BATCH_FAILURES);
  const failpoints = env.FAILPOINTS?.trim() || undefined;
  parseFailpoints(failpoints); // a bad rule throws here, naming itself
  const recordTtlSeconds =
    env.RECORD_TTL_SECONDS === undefined
      ? undefined
      : seconds("RECORD_TTL_SECONDS", env.RECORD_TTL_SECONDS);
  return {
    guard: guardSetting(env.GUARD ?? fromIdempotencySwitch(env.IDEMPOTENCY)),
    parseMode: oneOf("PARSE_MODE", env.PARSE_MODE ?? DEFAULT_SETTINGS.parseMode, PARSE_MODES),
    fault: oneOf("FAULT", env.FAULT ?? DEFAULT_SETTINGS.fault, FAULTS),
    workMs: milliseconds("WORK_MS", env.WORK_MS, DEFAULT_SETTINGS.workMs),
    ...(raceWindowMs === undefined ? {} : { raceWindowMs }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(leaseDefences === undefined ? {} : { leaseDefences }),
    ...(providerKey === undefined ? {} : { providerKey }),
    ...(recordTtlSeconds === undefined ? {} : { recordTtlSeconds }),
    ...(batchFailures === undefined ? {} : { batchFailures }),
    ...(failpoints === undefined ? {} : { failpoints }),
  };
}

/** What the worker runs with: its settings, every optional one filled in, and its tables. */
export function readConfig(env: Env): WorkerConfig {
  const defaults = namesFor();
  return {
    raceWindowMs: DEFAULT_RACE_WINDOW_MS,
    leaseMs: DEFAULT_LEASE_MS,
    leaseDefences: "both",
    providerKey: "none",
    recordTtlSeconds: DEFAULT_RECORD_TTL_SECONDS,
    batchFailures: "report",
    failpoints: "",
    ...settingsFromEnv(env),
    claimsTable: env.CLAIMS_TABLE ?? defaults.claimsTable,
    ledgerTable: env.LEDGER_TABLE ?? defaults.ledgerTable,
    powertoolsTable: env.POWERTOOLS_TABLE ?? defaults.powertoolsTable,
    failpointsTable: env.FAILPOINTS_TABLE ?? defaults.failpointsTable,
  };
}

// The original lab's switch: IDEMPOTENCY=1 turned the conditional claim on; GUARD wins.
function fromIdempotencySwitch(value: string | undefined): string {
  if (value === undefined || value === "0" || value === "1")
    return guardFromWord(value ?? "0") as string;
  throw new Error(`IDEMPOTENCY must be 0 or 1, got "${value}"`);
}

function guardSetting(value: string): GuardChoice {
  if (isGuardFileName(value)) return value;
  try {
    return oneOf("GUARD", value, GUARDS);
  } catch {
    throw new Error(
      `GUARD must be one of ${GUARDS.join(", ")}, or a guard file's name (my-guard.ts); got "${value}"`,
    );
  }
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

function seconds(name: string, value: string): number {
  const s = Number(value);
  if (!Number.isInteger(s) || s < 1)
    throw new Error(`${name} must be a whole number of seconds, at least 1; got "${value}"`);
  return s;
}
