// npx lab grade's answers before any emulator starts: a guard file that does not compile is one
// line naming the file's own line and column, exit 2; so are the other usage errors.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { npxLab } from "../node-tsx.js";

const grade = (...args: string[]) =>
  spawnSync(...npxLab(["grade", ...args]), {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    timeout: 60_000,
    // Nothing answers here: a command that reached the emulator would exit 3, not 2.
    env: { ...process.env, LAB_BACKEND: "endpoint", LAB_ENDPOINT: "http://127.0.0.1:9" },
  });

/** line:col (1-based) of the first occurrence of `text` in a fixture. */
function positionOf(file: string, text: string): string {
  const lines = readFileSync(path.join(PROJECT_ROOT, file), "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  return `${line + 1}:${(lines[line] ?? "").indexOf(text) + 1}`;
}

describe("npx lab grade", () => {
  test("a type error: exit 2, exactly one line, type-error.ts:line:col and the compiler's words", () => {
    const file = "test/fixtures/broken-guards/type-error.ts";
    const result = grade(file);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^grade: test/fixtures/broken-guards/type-error\\.ts:${positionOf(file, "async ({ charge })")}: .*'number' is not assignable to type 'Outcome'`,
      ),
    );
  });

  test("a word that is neither a lab guard nor a file: exit 2, one line", () => {
    const result = grade("leese");
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      'grade: "leese" is not a guard; use off, naive, claim, lease, powertools, 0, 1, or a guard file (a path ending .ts, .mts, .js or .mjs) (did you mean lease?)',
    ]);
  });

  test("npm run grade -- … is an alias of npx lab grade …: the same answer", () => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const result = spawnSync(npm, ["run", "-s", "grade", "--", "leese"], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 60_000,
      shell: process.platform === "win32",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('grade: "leese" is not a guard;');
  });

  test("--guard-file with a scenario other than guard-matrix: exit 2, one line", () => {
    const result = spawnSync(
      ...npxLab(["scenario", "guard-on", "--guard-file", "test/fixtures/guards/lease-copy.ts"]),
      {
        cwd: PROJECT_ROOT,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, LAB_BACKEND: "endpoint", LAB_ENDPOINT: "http://127.0.0.1:9" },
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("--guard-file grades a guard file with the guard matrix only");
  });
});
