// The closing line CI reads: a suite whose setup failed must count as failed, never as skipped.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "../../harness/common/paths.js";

const fixture = path.join(PROJECT_ROOT, "test", "unit", "reporter-fixture");
const runFixture = (config: string) =>
  spawnSync(
    path.join(PROJECT_ROOT, "node_modules", ".bin", "vitest"),
    ["run", "--config", path.join(fixture, config)],
    { cwd: fixture, encoding: "utf8", timeout: 60_000 },
  );

test("a failed beforeAll is counted and printed as failed, with its error", () => {
  const run = runFixture("vitest.config.ts");
  expect(run.status).not.toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  expect(lines.at(-1)).toBe("1 passed, 2 failed, 1 skipped");
  expect(run.stdout).toContain(
    "FAILED setup of a suite whose setup fails: pull access denied for testcontainers/ryuk",
  );
  expect(run.stdout).toContain("so 2 test(s) did not run: first, second");
  expect(run.stdout).toContain("SKIPPED 1 test(s): no engine here");
});

test("a global setup that throws is a failed run, not 0 failed", () => {
  const run = runFixture("setup-fails.config.ts");
  expect(run.status).not.toBe(0);
  expect(run.stdout).toContain("FAILED before any test ran (a global setup, most likely)");
  expect(run.stdout).toMatch(/^0 passed, 1 failed, 0 skipped$/m);
});
