// Which pip installs into the lab's venv. Made with a pip of its own, the venv costs about 5 s of
// CPU (ensurepip installs pip and compiles its 700 files); made without one it takes 0.1 s, and
// the Python that made it installs into it (`pip --python`, pip 22.3 and newer). A Python whose
// pip is older, or that has none, makes the venv with its own pip.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { LabError } from "../common/errors.js";
import type { Say } from "../common/say.js";
import { lastLines, run } from "./processes.js";
import type { PythonCommand } from "./python.js";

/** pip as run: the command and the arguments that come before pip's own (install, download). */
export interface PipCommand {
  command: string;
  args: string[];
}

/** The lab's venv as the commands that install into it see it: its python, and the pip for it. */
export interface LabVenv {
  python: string;
  pip: PipCommand;
}

export const pipOf = (python: PythonCommand): PipCommand => ({
  command: python.command,
  args: [...python.args, "-m", "pip"],
});

/** The first pip that can install into another environment (`pip --python`). */
const ELSEWHERE_FROM = [22, 3] as const;

/** Whether this Python's pip can install into the venv from outside it. */
export async function pipInstallsElsewhere(
  python: PythonCommand,
  runner: typeof run = run,
): Promise<boolean> {
  const pip = pipOf(python);
  const { code, output } = await runner(pip.command, [...pip.args, "--version"], {
    timeoutMs: 60_000,
  }).catch(() => ({ code: null, output: "" }));
  const version = /^pip (\d+)\.(\d+)/m.exec(output);
  if (code !== 0 || !version) return false; // no pip at all: the venv brings its own
  const [major, minor] = [Number(version[1]), Number(version[2])];
  const [fromMajor, fromMinor] = ELSEWHERE_FROM;
  return major > fromMajor || (major === fromMajor && minor >= fromMinor);
}

/** The venv's site-packages folders: lib/python3.X/site-packages, or Lib\site-packages. */
function sitePackages(venv: string): string[] {
  if (process.platform === "win32") return [path.join(venv, "Lib", "site-packages")];
  try {
    const lib = path.join(venv, "lib");
    return readdirSync(lib).map((version) => path.join(lib, version, "site-packages"));
  } catch {
    return [];
  }
}

/** A venv made with pip (by an earlier lab, or by a Python whose pip installs only at home). */
export const venvHasPip = (venv: string): boolean =>
  sitePackages(venv).some((dir) => existsSync(path.join(dir, "pip")));

/** The pip that installs into the venv: its own, or else the Python's, pointed at it. */
export function pipForVenv(venv: string, venvPython: string, python: PythonCommand): PipCommand {
  if (venvHasPip(venv)) return pipOf({ command: venvPython, args: [] });
  const outside = pipOf(python);
  return { command: outside.command, args: [...outside.args, "--python", venvPython] };
}

/**
 * Gives the venv a pip of its own: one made without it, met by a Python whose pip cannot install
 * into it (LAB_PYTHON now names another install of the same version, or its pip was removed).
 */
export async function addVenvPip(venv: string, venvPython: string, say: Say): Promise<void> {
  say(`adding pip to ${venv} (once)`);
  const added = await run(venvPython, ["-m", "ensurepip", "--default-pip"], {
    timeoutMs: 120_000,
  });
  if (added.code !== 0) {
    const last = lastLines(added.output).split(/\r?\n/).at(-1) ?? "";
    throw new LabError(
      `could not add pip to ${venv} (${last || `ensurepip exited ${added.code}`}): remove the folder and run the command again`,
    );
  }
}
