// Finding Python on each platform (a fake runner stands in for Windows and Linux), one real
// look on this machine, and pip's own answer on whether .lab/wheels installs ministack here.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { MINISTACK_VERSION, offlineWheels } from "../../harness/backends/ministack-install.js";
import type { RunResult } from "../../harness/backends/processes.js";
import { findPython, pythonCandidates } from "../../harness/backends/python.js";
import { LabError } from "../../harness/common/errors.js";
import { wheelsFolder } from "./ministack-wheel-fixture.js";

type Answer = RunResult | "not on PATH";

/** Answers each command line as told; anything else is not on PATH. Records what ran. */
function fakeRunner(answers: Record<string, Answer>) {
  const ran: string[][] = [];
  const runner = async (command: string, args: string[]): Promise<RunResult> => {
    ran.push([command, ...args]);
    const answer = answers[[command, ...args.slice(0, args.indexOf("-c"))].join(" ")];
    if (!answer || answer === "not on PATH")
      throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: "ENOENT" });
    return answer;
  };
  return { runner, ran };
}
const says = (version: string): RunResult => ({ code: 0, output: `${version}\n` });

describe("which Pythons are tried", () => {
  test("Windows: the py launcher first, then python, then python3", () => {
    expect(pythonCandidates("win32", {})).toEqual([
      { command: "py", args: ["-3"] },
      { command: "python", args: [] },
      { command: "python3", args: [] },
    ]);
  });

  test("Linux and macOS: python3, then python", () => {
    for (const platform of ["linux", "darwin"] as const)
      expect(pythonCandidates(platform, {})).toEqual([
        { command: "python3", args: [] },
        { command: "python", args: [] },
      ]);
  });

  test("LAB_PYTHON alone when set, on any platform", () => {
    expect(pythonCandidates("win32", { LAB_PYTHON: "C:\\Python312\\python.exe" })).toEqual([
      { command: "C:\\Python312\\python.exe", args: [] },
    ]);
  });
});

describe("findPython with a fake runner", () => {
  test("Windows with the launcher: py -3, its -3 before the script", async () => {
    const { runner, ran } = fakeRunner({ "py -3": says("3.12") });
    const found = await findPython({ platform: "win32", env: {}, runner });
    expect(found).toEqual({ command: "py", args: ["-3"], version: "3.12" });
    expect(ran[0]?.slice(0, 3)).toEqual(["py", "-3", "-c"]);
  });

  test("Windows without the launcher, python the Store's stub (exit 9009): python3", async () => {
    const { runner, ran } = fakeRunner({
      python: {
        code: 9009,
        output: "Python was not found; run without arguments to install from the Microsoft Store\n",
      },
      python3: says("3.11"),
    });
    const found = await findPython({ platform: "win32", env: {}, runner });
    expect(found).toEqual({ command: "python3", args: [], version: "3.11" });
    expect(ran.map((r) => r[0])).toEqual(["py", "python", "python3"]);
  });

  test("Linux without python3: python", async () => {
    const { runner } = fakeRunner({ python: says("3.10") });
    expect(await findPython({ platform: "linux", env: {}, runner })).toEqual({
      command: "python",
      args: [],
      version: "3.10",
    });
  });

  test("a warning beside the version does not hide it", async () => {
    const { runner } = fakeRunner({
      python3: { code: 0, output: "Could not find platform dependent libraries\n3.13\n" },
    });
    expect((await findPython({ platform: "linux", env: {}, runner })).version).toBe("3.13");
  });

  test("an old py -3 does not stop the search for a newer python", async () => {
    const { runner } = fakeRunner({ "py -3": says("3.8"), python: says("3.12") });
    expect((await findPython({ platform: "win32", env: {}, runner })).command).toBe("python");
  });

  test("only old ones: says which, and what to do", async () => {
    const { runner } = fakeRunner({ "py -3": says("3.9"), python: says("3.8") });
    await expect(findPython({ platform: "win32", env: {}, runner })).rejects.toThrow(
      "MiniStack needs Python 3.10 or newer; py -3 is 3.9, python is 3.8. Install a newer one or set LAB_PYTHON",
    );
  });

  test("none at all: a LabError naming each one tried", async () => {
    const { runner } = fakeRunner({});
    const failing = findPython({ platform: "win32", env: {}, runner });
    await expect(failing).rejects.toBeInstanceOf(LabError);
    await expect(failing).rejects.toThrow("none was found (tried py -3, python, python3)");
  });

  test("a LAB_PYTHON that does not run is not replaced by another Python", async () => {
    const { runner, ran } = fakeRunner({ python3: says("3.12") });
    await expect(
      findPython({ platform: "linux", env: { LAB_PYTHON: "/opt/py/bin/python" }, runner }),
    ).rejects.toThrow("tried /opt/py/bin/python");
    expect(ran.map((r) => r[0])).toEqual(["/opt/py/bin/python"]);
  });
});

describe("on this machine", () => {
  test("findPython finds a real Python 3.10+ and runs it", async () => {
    const found = await findPython();
    expect(found.args).toEqual([]);
    const [major = 0, minor = 0] = found.version.split(".").map(Number);
    expect(major > 3 || (major === 3 && minor >= 10)).toBe(true);
  });
});

describe("offlineWheels: does pip install ministack from .lab/wheels, here, offline", () => {
  test("no folder, or no wheels in it: none, and pip is not asked", async () => {
    const { runner, ran } = fakeRunner({});
    const empty = mkdtempSync(path.join(tmpdir(), "lab-wheels-"));
    writeFileSync(path.join(empty, "README.txt"), "not a wheel");
    for (const wheels of [path.join(empty, "missing"), empty])
      expect(await offlineWheels({ command: "python3", args: [] }, wheels, runner)).toEqual({
        state: "none",
      });
    expect(ran).toEqual([]);
  });

  test("the question asked of pip: a dry run, no index, binaries only, the pinned version", async () => {
    const wheels = wheelsFolder((await findPython()).command);
    const ran: string[][] = [];
    const runner = async (command: string, args: string[]) => {
      ran.push([command, ...args]);
      return { code: 0, output: "" };
    };
    const answer = await offlineWheels({ command: "py", args: ["-3"] }, wheels, runner);
    expect(answer).toEqual({ state: "resolve" });
    expect(ran[0]?.slice(0, 6)).toEqual(["py", "-3", "-m", "pip", "install", "--dry-run"]);
    expect(ran[0]).toEqual(
      expect.arrayContaining(["--no-index", "--ignore-installed", "--only-binary", ":all:"]),
    );
    expect(ran[0]?.[ran[0].indexOf("--find-links") + 1]).toBe(wheels);
    expect(ran[0]?.at(-1)).toBe(`ministack==${MINISTACK_VERSION}`);
  });

  describe("with the real pip", () => {
    const found = findPython();
    test("a wheel for any platform, with no missing dependency: resolves", async () => {
      const python = await found;
      expect(await offlineWheels(python, wheelsFolder(python.command))).toEqual({
        state: "resolve",
      });
    });

    test("ministack's wheel alone, its dependency missing: unusable, and pip says which", async () => {
      const python = await found;
      const wheels = wheelsFolder(python.command, "py3-none-any", ["pyyaml>=6.0"]);
      expect(await offlineWheels(python, wheels)).toEqual({
        state: "unusable",
        why: "No matching distribution found for pyyaml>=6.0",
      });
    });

    test("a wheel for another platform (what the old file-name check took for usable)", async () => {
      const python = await found;
      const elsewhere = process.platform === "win32" ? "manylinux_2_17_x86_64" : "win_amd64";
      const wheels = wheelsFolder(python.command, `cp311-cp311-${elsewhere}`);
      expect(await offlineWheels(python, wheels)).toEqual({
        state: "unusable",
        why: `No matching distribution found for ministack==${MINISTACK_VERSION}`,
      });
    });
  });
});
