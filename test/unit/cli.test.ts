// The scenario command's answers to bad input: one clear message and exit code 2, without
// starting any emulator.
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { closest } from "../../harness/common/closest.js";
import { npxLab } from "../node-tsx.js";

const run = (...args: string[]) =>
  spawnSync(...npxLab(["scenario", ...args]), {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, LAB_BACKEND: "endpoint", LAB_ENDPOINT: "http://127.0.0.1:9" },
  });

describe("npx lab scenario", () => {
  test("--list prints the catalogue", () => {
    const result = run("--list");
    expect(result.status).toBe(0);
    for (const name of ["guard-off", "guard-on", "malformed-body", "racing-copies"])
      expect(result.stdout).toContain(name);
  });

  test("an unknown name exits 2 with the list and the closest name", () => {
    const result = run("guard-of");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown scenario "guard-of" (did you mean guard-off');
    expect(result.stderr).toContain("racing-copies");
  });

  test("no name exits 2 with the usage", () => {
    const result = run();
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("usage: npx lab scenario <name>");
  });

  test("an unknown flag exits 2", () => {
    const result = run("guard-on", "--jsno");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^scenario: unknown option '--jsno'\n\(Did you mean --json\?\)/);
  });

  test("a dead endpoint is one line and exit 3, not a stack trace", () => {
    const result = run("guard-on");
    expect(result.status).toBe(3);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("no emulator answers at http://127.0.0.1:9");
  });
});

describe("closest", () => {
  test("suggests near names and nothing for far ones", () => {
    const names = ["guard-off", "guard-on", "malformed-body", "racing-copies"];
    expect(closest("racing", names)).toEqual(["racing-copies"]);
    expect(closest("guard-onn", names)[0]).toBe("guard-on");
    expect(closest("zzzzzzzz", names)).toEqual([]);
  });
});
