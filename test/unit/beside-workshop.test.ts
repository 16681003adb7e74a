// A scenario run never lands on a workshop lab's resources: when `lab up` saved a lab on the
// same emulator under the same prefix, the run takes a prefix of its own. Which endpoints count
// as the same emulator is decided here; the run itself is in test/scenarios/workshop-apart.test.ts.
import { describe, expect, test } from "vitest";
import { sameEndpoint } from "../../harness/backends/endpoint.js";
import { prefixBesideWorkshop } from "../../harness/scenario/open-lab.js";

describe("sameEndpoint", () => {
  test.each([
    ["http://localhost:4566", "http://127.0.0.1:4566"],
    ["http://localhost:4566/", "http://LOCALHOST:4566"],
    ["http://[::1]:4566", "http://127.0.0.1:4566"],
    ["http://localhost", "http://127.0.0.1:80"],
  ])("%s is %s", (a, b) => {
    expect(sameEndpoint(a, b)).toBe(true);
  });

  test.each([
    ["http://localhost:4566", "http://localhost:4567"],
    ["http://localhost:4566", "https://localhost:4566"],
    ["http://172.17.0.1:4566", "http://127.0.0.1:4566"],
    ["not a url", "http://localhost:4566"],
  ])("%s is not %s", (a, b) => {
    expect(sameEndpoint(a, b)).toBe(false);
  });
});

describe("prefixBesideWorkshop", () => {
  const saved = {
    backend: { endpoint: "http://localhost:4566" },
    prefix: "aws-lab-sqs-idempotency",
  };

  test("the workshop's emulator and prefix: a prefix of the run's own", () => {
    expect(prefixBesideWorkshop(saved, "http://127.0.0.1:4566", "aws-lab-sqs-idempotency")).toBe(
      "aws-lab-sqs-idempotency-scenario",
    );
  });

  test("anything else shares nothing, so the run keeps its prefix", () => {
    expect(prefixBesideWorkshop(undefined, "http://localhost:4566", "p")).toBeUndefined();
    expect(prefixBesideWorkshop(saved, "http://127.0.0.1:38945", saved.prefix)).toBeUndefined();
    expect(prefixBesideWorkshop(saved, "http://localhost:4566", "other")).toBeUndefined();
  });
});
