// Which pip installs into the lab's venv: the Python's own, pointed at the venv, when it is new
// enough to (then the venv is made without one), else the venv's.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { RunResult } from "../../harness/backends/processes.js";
import {
  addVenvPip,
  pipForVenv,
  pipInstallsElsewhere,
  venvHasPip,
} from "../../harness/backends/venv-pip.js";
import { tempFolder } from "../temp-folder.js";

const python = { command: "py", args: ["-3"] };
/** A runner that answers `py -3 -m pip --version` with this, and records what ran. */
function pipAnswers(answer: RunResult | Error) {
  const ran: string[][] = [];
  const runner = async (command: string, args: string[]) => {
    ran.push([command, ...args]);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { runner, ran };
}
const pipSays = (line: string): RunResult => ({ code: 0, output: `${line}\n` });

describe("pipInstallsElsewhere: pip 22.3 and newer install into another environment", () => {
  test.each([
    ["pip 22.3 from /usr/lib/python3/dist-packages/pip (python 3.11)", true],
    ["pip 23.2.1 from C:\\Python311\\Lib\\site-packages\\pip (python 3.11)", true],
    ["pip 24.0 from /x (python 3.12)", true],
    ["pip 22.2.2 from /x (python 3.10)", false],
    ["pip 21.3.1 from /x (python 3.10)", false],
  ])("%s: %s", async (line, expected) => {
    const { runner, ran } = pipAnswers(pipSays(line));
    expect(await pipInstallsElsewhere(python, runner)).toBe(expected);
    expect(ran).toEqual([["py", "-3", "-m", "pip", "--version"]]);
  });

  test("a Python without pip (No module named pip), or one that does not start: no", async () => {
    const noPip = pipAnswers({ code: 1, output: "/usr/bin/python3: No module named pip\n" });
    expect(await pipInstallsElsewhere(python, noPip.runner)).toBe(false);
    const gone = pipAnswers(Object.assign(new Error("spawn py ENOENT"), { code: "ENOENT" }));
    expect(await pipInstallsElsewhere(python, gone.runner)).toBe(false);
  });
});

describe("pipForVenv", () => {
  const venv = () => tempFolder("lab-venv-pip-");
  const venvPython = "/lab/venv/bin/python";

  test("a venv with its own pip: that pip", () => {
    const made = venv();
    const sitePackages =
      process.platform === "win32"
        ? path.join(made, "Lib", "site-packages")
        : path.join(made, "lib", "python3.11", "site-packages");
    mkdirSync(path.join(sitePackages, "pip"), { recursive: true });
    expect(venvHasPip(made)).toBe(true);
    expect(pipForVenv(made, venvPython, python)).toEqual({
      command: venvPython,
      args: ["-m", "pip"],
    });
  });

  test("a venv made without pip: the Python's, pointed at the venv", () => {
    const made = venv();
    mkdirSync(path.join(made, process.platform === "win32" ? "Lib" : "lib"));
    expect(venvHasPip(made)).toBe(false);
    expect(pipForVenv(made, venvPython, python)).toEqual({
      command: "py",
      args: ["-3", "-m", "pip", "--python", venvPython],
    });
  });
});

test.skipIf(process.platform === "win32")(
  "a venv whose python cannot add pip: one line, what went wrong and what to do",
  async () => {
    const venv = tempFolder("lab-venv-pip-");
    const python = path.join(venv, "python");
    writeFileSync(
      python,
      '#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "/lab/venv/bin/python: No module named ensurepip" >&2\nexit 1\n',
    );
    chmodSync(python, 0o755);
    const said: string[] = [];
    const added = addVenvPip(venv, python, (line) => said.push(line));
    await expect(added).rejects.toThrow(
      `could not add pip to ${venv} (/lab/venv/bin/python: No module named ensurepip): remove the folder and run the command again`,
    );
    await added.catch((err: Error) => expect(err.message).not.toContain("\n"));
    expect(said).toEqual([`adding pip to ${venv} (once)`]);
  },
);
