// `npx lab` runs from a bundle (bin/cli-bundle.mjs): built when missing, rebuilt when a file it
// was built from is newer, and never seen half-written by a command that starts meanwhile.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { npxLab } from "../node-tsx.js";

const BUNDLES = path.join(PROJECT_ROOT, "node_modules", ".cache", "sqs-idempotency-lab", "cli");
const CURRENT = path.join(BUNDLES, "current.json");

interface Current {
  dir: string;
  entry: string;
  startedMs: number;
  inputs: string[];
}
const current = () => JSON.parse(readFileSync(CURRENT, "utf8")) as Current;

const lab = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(...npxLab(args), { timeout: 60_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });

test("no bundle yet: three commands started at once each answer, and one bundle is current", async () => {
  rmSync(CURRENT, { force: true });
  const runs = await Promise.all([lab("--help"), lab("--help"), lab("stauts")]);
  expect(runs.map((r) => r.status)).toEqual([0, 0, 2]);
  for (const run of runs.slice(0, 2)) {
    expect(run.stdout).toMatch(/^Usage: lab /);
    expect(run.stderr).toBe(""); // building says so to a person at a terminal, not to a pipe
  }
  expect(runs[2]?.stderr).toContain("Did you mean status?");
  const built = current();
  expect(statSync(path.join(BUNDLES, built.dir, built.entry)).isFile()).toBe(true);
  expect(built.inputs).toContain("harness/cli/lab-cli.ts");
  expect(built.inputs).toContain("harness/cli/commands/send.ts");
});

test("a source newer than the bundle is built again; an unchanged one is not", async () => {
  expect((await lab("--help")).status).toBe(0);
  const before = current();
  expect((await lab("--help")).status).toBe(0);
  expect(current().dir).toBe(before.dir); // nothing changed: the same bundle

  // A file the bundle came from, edited after its build began (its content is left as it is).
  const source = path.join(PROJECT_ROOT, "harness", "cli", "voice.ts");
  const now = new Date();
  expect(now.getTime()).toBeGreaterThan(before.startedMs);
  utimesSync(source, now, now);
  const after = await lab("--help");
  expect(after.status).toBe(0);
  expect(current().dir).not.toBe(before.dir);
  expect(current().startedMs).toBeGreaterThan(before.startedMs);
});

test("the AWS SDK is required, not imported: an ES import of its CommonJS is parsed for its names at every start", async () => {
  expect((await lab("--help")).status).toBe(0);
  const built = path.join(BUNDLES, current().dir);
  const files = readdirSync(built, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".mjs"),
  );
  const code = files.map((f) => readFileSync(path.join(built, f), "utf8")).join("\n");
  expect(code).toMatch(/require\("@aws-sdk\/client-dynamodb"\)/);
  expect(code).not.toMatch(/from\s*"@(aws-sdk|smithy)\//);
  expect(code).not.toMatch(/import\("@(aws-sdk|smithy)\//);
  expect(current().inputs.every((input) => !input.includes(":"))).toBe(true);
});
