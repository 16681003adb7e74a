// Finding Python on each platform (a fake runner stands in for Windows and Linux), one real
// look on this machine, and pip's own answer on whether .lab/wheels installs ministack here.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { MINISTACK_VERSION, offlineWheels } from "../../harness/backends/ministack-install.js";
import type { RunResult } from "../../harness/backends/processes.js";
import {
  findPython,
  NoSupportedPython,
  pythonCandidates,
  pythonLabel,
  pythonVersion,
} from "../../harness/backends/python.js";
import { pipOf } from "../../harness/backends/venv-pip.js";
import { LabError } from "../../harness/common/errors.js";
import { tempFolder } from "../temp-folder.js";
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
/** A Python's answer: its version, then its sys.executable (empty: a Python that cannot say). */
const says = (version: string, executable = ""): RunResult => ({
  code: 0,
  output: `${version}\n${executable}\n`,
});

describe("which Pythons are tried", () => {
  test("Windows: py -3.13 to py -3.10, then py -3, python, python3", () => {
    expect(pythonCandidates("win32", {}).map(pythonLabel)).toEqual([
      "py -3.13",
      "py -3.12",
      "py -3.11",
      "py -3.10",
      "py -3",
      "python",
      "python3",
    ]);
  });

  test("Linux and macOS: python3.13 to python3.10, then python3, python", () => {
    for (const platform of ["linux", "darwin"] as const)
      expect(pythonCandidates(platform, {}).map(pythonLabel)).toEqual([
        "python3.13",
        "python3.12",
        "python3.11",
        "python3.10",
        "python3",
        "python",
      ]);
  });

  test("LAB_PYTHON alone when set, on any platform", () => {
    expect(pythonCandidates("win32", { LAB_PYTHON: "C:\\Python312\\python.exe" })).toEqual([
      { command: "C:\\Python312\\python.exe", args: [] },
    ]);
  });
});

describe("findPython with a fake runner", () => {
  test("Windows with the launcher: py -3.12, its -3.12 before the script", async () => {
    const python312 = "C:\\Python312\\python.exe";
    const { runner, ran } = fakeRunner({
      "py -3.12": says("3.12", python312),
      "py -3": says("3.12", python312),
    });
    const found = await findPython({ platform: "win32", env: {}, runner });
    // Found through the launcher, run as the interpreter it started; named as the user types it.
    expect(found).toEqual({ command: python312, args: [], version: "3.12", label: "py -3.12" });
    expect(ran.at(-1)?.slice(0, 3)).toEqual(["py", "-3.12", "-c"]);
  });

  test("py -3 would pick 3.14 (the newest): the 3.12 beside it is taken", async () => {
    const { runner } = fakeRunner({ "py -3.12": says("3.12"), "py -3": says("3.14") });
    // A Python that does not name its interpreter is run as it was found.
    expect(await findPython({ platform: "win32", env: {}, runner })).toEqual({
      command: "py",
      args: ["-3.12"],
      version: "3.12",
      label: "py -3.12",
    });
  });

  test("only 3.14: one line naming what was found and what is needed", async () => {
    const { runner } = fakeRunner({ python3: says("3.14"), python: says("3.14") });
    const failing = findPython({ platform: "linux", env: {}, runner });
    await expect(failing).rejects.toThrow(
      "MiniStack needs Python 3.10 to 3.13 (the versions the kit's wheels are for); found only python3 3.14, python 3.14. Install one of them, or set LAB_PYTHON to one",
    );
    await expect(failing).rejects.toBeInstanceOf(NoSupportedPython);
    await expect(failing).rejects.toMatchObject({ found: ["python3 3.14", "python 3.14"] });
  });

  test("a LAB_PYTHON the kit has no wheels for is refused too", async () => {
    const { runner } = fakeRunner({ "/opt/py314/bin/python": says("3.14") });
    await expect(
      findPython({ platform: "linux", env: { LAB_PYTHON: "/opt/py314/bin/python" }, runner }),
    ).rejects.toThrow("found only /opt/py314/bin/python 3.14");
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
    expect(found).toEqual({ command: "python3", args: [], version: "3.11", label: "python3" });
    expect(ran.map((r) => r[0])).toEqual(["py", "py", "py", "py", "py", "python", "python3"]);
  });

  test("Linux without python3: python", async () => {
    const { runner } = fakeRunner({ python: says("3.10") });
    expect(await findPython({ platform: "linux", env: {}, runner })).toEqual({
      command: "python",
      args: [],
      version: "3.10",
      label: "python",
    });
  });

  test("a warning beside the version does not hide it", async () => {
    const { runner } = fakeRunner({
      python3: { code: 0, output: "Could not find platform dependent libraries\n3.13\n" },
    });
    expect((await findPython({ platform: "linux", env: {}, runner })).version).toBe("3.13");
  });

  test("an old py -3 does not stop the search for a supported python", async () => {
    const { runner } = fakeRunner({ "py -3": says("3.8"), python: says("3.12") });
    expect((await findPython({ platform: "win32", env: {}, runner })).command).toBe("python");
  });

  test("only old ones: says which, and what to do", async () => {
    const { runner } = fakeRunner({ "py -3": says("3.9"), python: says("3.8") });
    await expect(findPython({ platform: "win32", env: {}, runner })).rejects.toThrow(
      "MiniStack needs Python 3.10 to 3.13 (the versions the kit's wheels are for); found only py -3 3.9, python 3.8. Install one of them, or set LAB_PYTHON to one",
    );
  });

  test("none at all: a LabError naming each one tried", async () => {
    const { runner } = fakeRunner({});
    const failing = findPython({ platform: "win32", env: {}, runner });
    await expect(failing).rejects.toBeInstanceOf(LabError);
    await expect(failing).rejects.toThrow(
      "none was found (tried py -3.13, py -3.12, py -3.11, py -3.10, py -3, python, python3)",
    );
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
  test("findPython finds a real Python 3.10 to 3.13 and runs it", async () => {
    const found = await findPython();
    expect(found.args).toEqual([]);
    expect(["3.10", "3.11", "3.12", "3.13"]).toContain(found.version);
    // The interpreter itself, not a launcher (here pyenv's shim): it answers as the one found.
    expect(path.isAbsolute(found.command)).toBe(true);
    expect(found.command).not.toMatch(/[\\/]shims[\\/]/);
    expect(await pythonVersion({ command: found.command, args: [] })).toBe(found.version);
    expect(found.label).toMatch(/^python/);
  });

  test("looked for once per process and PATH, again under another PATH", async () => {
    expect(findPython()).toBe(findPython());
    const elsewhere = { ...process.env, PATH: `${process.env.PATH}${path.delimiter}` };
    expect(findPython({ env: elsewhere })).not.toBe(findPython());
  });
});

describe("offlineWheels: does pip install ministack from .lab/wheels, here, offline", () => {
  test("no folder, or no wheels in it: none, and pip is not asked", async () => {
    const { runner, ran } = fakeRunner({});
    const empty = tempFolder("lab-wheels-");
    writeFileSync(path.join(empty, "README.txt"), "not a wheel");
    for (const wheels of [path.join(empty, "missing"), empty])
      expect(await offlineWheels(pipOf({ command: "python3", args: [] }), wheels, runner)).toEqual({
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
    const answer = await offlineWheels(pipOf({ command: "py", args: ["-3"] }), wheels, runner);
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
      expect(await offlineWheels(pipOf(python), wheelsFolder(python.command))).toEqual({
        state: "resolve",
      });
    });

    test("ministack's wheel alone, its dependency missing: unusable, and pip says which", async () => {
      const python = await found;
      const wheels = wheelsFolder(python.command, "py3-none-any", ["pyyaml>=6.0"]);
      expect(await offlineWheels(pipOf(python), wheels)).toEqual({
        state: "unusable",
        why: "No matching distribution found for pyyaml>=6.0",
      });
    });

    test("a wheel for another platform (what the old file-name check took for usable)", async () => {
      const python = await found;
      const elsewhere = process.platform === "win32" ? "manylinux_2_17_x86_64" : "win_amd64";
      const wheels = wheelsFolder(python.command, `cp311-cp311-${elsewhere}`);
      expect(await offlineWheels(pipOf(python), wheels)).toEqual({
        state: "unusable",
        why: `No matching distribution found for ministack==${MINISTACK_VERSION}`,
      });
    });
  });
});
