import { describe, expect, test } from "vitest";
import { readConfig } from "../../contract/settings.js";
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
