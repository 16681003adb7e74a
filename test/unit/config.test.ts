import { describe, expect, test } from "vitest";
import {
  BATCH_FAILURES,
  DEFAULT_SETTINGS,
  FAULTS,
  GUARDS,
  guardFromWord,
  LEASE_DEFENCES,
  PARSE_MODES,
  PROVIDER_KEYS,
  readConfig,
  settingsFromEnv,
  settingsToEnv,
  type WorkerSettings,
} from "../../contract/settings.js";
import { labNames } from "../../harness/aws/names.js";
import { workerEnvironment } from "../../harness/aws/worker-env.js";

describe("the worker's environment", () => {
  test("IDEMPOTENCY is the article's switch: 0 is off, 1 is the conditional claim", () => {
    expect(readConfig({}).guard).toBe("off");
    expect(readConfig({ IDEMPOTENCY: "0" }).guard).toBe("off");
    expect(readConfig({ IDEMPOTENCY: "1" }).guard).toBe("claim");
  });

  test("GUARD wins when both are set", () => {
    expect(readConfig({ IDEMPOTENCY: "1", GUARD: "naive" }).guard).toBe("naive");
  });

  test("defaults: lenient parsing, no fault, no work", () => {
    expect(readConfig({})).toMatchObject({
      parseMode: "lenient",
      fault: "none",
      workMs: 0,
      raceWindowMs: 0,
    });
  });

  test.each([
    [{ GUARD: "maybe" }, /GUARD must be one of off, naive, claim, lease, powertools/],
    [{ IDEMPOTENCY: "yes" }, /IDEMPOTENCY must be 0 or 1/],
    [{ WORK_MS: "-1" }, /WORK_MS must be a whole number/],
    [{ WORK_MS: "1.5" }, /WORK_MS/],
    [{ PARSE_MODE: "loose" }, /PARSE_MODE/],
    [{ FAULT: "explode" }, /FAULT/],
    [{ PROVIDER_KEY: "requestId" }, /PROVIDER_KEY must be one of none, orderId, messageId/],
    [{ RECORD_TTL_SECONDS: "0" }, /RECORD_TTL_SECONDS must be a whole number of seconds/],
    [{ RECORD_TTL_SECONDS: "1.5" }, /RECORD_TTL_SECONDS/],
    [{ BATCH_FAILURES: "ignore" }, /BATCH_FAILURES must be one of report, throw/],
  ])("rejects %o", (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });

  test("what the harness sets is what the worker reads", () => {
    const names = labNames("lab-x");
    const env = workerEnvironment(names, { guard: "naive", workMs: 300, raceWindowMs: 250 });
    expect(readConfig(env)).toMatchObject({
      guard: "naive",
      workMs: 300,
      raceWindowMs: 250,
      claimsTable: "lab-x",
      ledgerTable: "lab-x-charges",
    });
  });
});

describe("the settings contract", () => {
  const every: WorkerSettings[] = GUARDS.flatMap((guard) =>
    PARSE_MODES.flatMap((parseMode) =>
      FAULTS.flatMap((fault) =>
        LEASE_DEFENCES.map((leaseDefences, i) => ({
          guard,
          parseMode,
          fault,
          workMs: 250,
          raceWindowMs: 7,
          leaseMs: 900,
          leaseDefences,
          providerKey: PROVIDER_KEYS[i % PROVIDER_KEYS.length] ?? "none",
          recordTtlSeconds: 2 + i,
          batchFailures: BATCH_FAILURES[i % BATCH_FAILURES.length] ?? "report",
        })),
      ),
    ),
  );

  test.each(every)("%o survives the trip through the environment", (settings) => {
    expect(settingsFromEnv(settingsToEnv(settings))).toEqual(settings);
  });

  test("an unset optional setting stays unset, so the worker's default applies", () => {
    const env = settingsToEnv({ guard: "lease" });
    expect(Object.keys(env).sort()).toEqual(["FAULT", "GUARD", "PARSE_MODE", "WORK_MS"]);
    expect(settingsFromEnv(env)).toEqual({ ...DEFAULT_SETTINGS, guard: "lease" });
    expect(readConfig(env)).toMatchObject({
      leaseMs: 30_000,
      leaseDefences: "both",
      providerKey: "none",
      recordTtlSeconds: 3_600,
      batchFailures: "report",
    });
  });

  test("the article's 0/1 switch and the guard names read the same everywhere", () => {
    expect(GUARDS.map(guardFromWord)).toEqual([...GUARDS]);
    expect([guardFromWord("0"), guardFromWord("1"), guardFromWord("2")]).toEqual([
      "off",
      "claim",
      undefined,
    ]);
    expect(readConfig({ IDEMPOTENCY: "1" }).guard).toBe(guardFromWord("1"));
  });
});

describe("resource names", () => {
  test("default to the original lab's", () => {
    expect(labNames()).toMatchObject({
      queue: "aws-lab-sqs-idempotency",
      dlq: "aws-lab-sqs-idempotency-dlq",
      functionName: "aws-lab-sqs-idempotency-worker",
      claimsTable: "aws-lab-sqs-idempotency",
      ledgerTable: "aws-lab-sqs-idempotency-charges",
      powertoolsTable: "aws-lab-sqs-idempotency-powertools",
      logGroup: "/aws/lambda/aws-lab-sqs-idempotency-worker",
    });
  });

  test("a prefix with a slash or a space is refused", () => {
    expect(() => labNames("a/b")).toThrow(/LAB_PREFIX/);
    expect(() => labNames("a b")).toThrow(/LAB_PREFIX/);
  });
});
