// Installing MiniStack: the pinned version from PyPI (or from wheels in .lab/wheels, saved by
// `lab offline-prepare` or copied from the workshop kit) into a venv under .lab/, once.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LabError } from "../common/errors.js";
import { LAB_DIR } from "../common/paths.js";
import type { Say } from "../common/say.js";
import { lastLines, run } from "./processes.js";
import { findPython, type PythonFound, pythonVersion } from "./python.js";
import {
  addVenvPip,
  type LabVenv,
  type PipCommand,
  pipForVenv,
  pipInstallsElsewhere,
  venvHasPip,
} from "./venv-pip.js";

export const MINISTACK_VERSION = "1.5.33";
export const isWindows = process.platform === "win32";

/** What makes MiniStack installable without the network. */
export const WHEELS_FIX =
  'copy the workshop kit\'s wheels into .lab/wheels, or run "npx lab offline-prepare" while online';

export interface MiniStackPaths {
  venv: string;
  python: string;
  marker: string;
  wheels: string;
}

export function ministackPaths(labDir = LAB_DIR): MiniStackPaths {
  const venv = path.join(labDir, "venv");
  return {
    venv,
    python: isWindows ? path.join(venv, "Scripts", "python.exe") : path.join(venv, "bin", "python"),
    marker: path.join(venv, `ministack-${MINISTACK_VERSION}.installed`),
    wheels: path.join(labDir, "wheels"),
  };
}

/** The venv's python runs and is this Python's version: the venv the lab would keep. */
export async function venvFits(paths: MiniStackPaths, python: PythonFound): Promise<boolean> {
  return (
    existsSync(paths.python) &&
    (await pythonVersion({ command: paths.python, args: [] })) === python.version
  );
}

/**
 * Installs the pinned MiniStack into .lab/venv the first time; later runs reuse it while it was
 * made by the Python the lab picks now. One made by another (3.14 before 3.13 was installed, or
 * one since removed) is made again: its pip would not take the kit's wheels, or it cannot run.
 */
export async function ensureMiniStack(
  say: Say,
  labDir = LAB_DIR,
  find: () => Promise<PythonFound> = findPython,
): Promise<MiniStackPaths & LabVenv> {
  const paths = ministackPaths(labDir);
  const python = await find();
  if (existsSync(paths.python)) {
    const madeBy = await pythonVersion({ command: paths.python, args: [] });
    // One that does not run yet may be another command's venv, still being made: only a
    // finished one (its marker written) is judged by a python that does not run.
    const stale = madeBy ? madeBy !== python.version : existsSync(paths.marker);
    if (stale) {
      say(
        `${paths.venv} was made by ${madeBy ? `Python ${madeBy}` : "a Python that no longer runs"}; ` +
          `making it again with ${python.label} (${python.version})`,
      );
      try {
        rmSync(paths.venv, { recursive: true, force: true });
      } catch (err) {
        throw new LabError(
          `could not remove ${paths.venv} (${(err as Error).message}); is a MiniStack from it still running? npx lab down, then try again`,
        );
      }
    }
  }
  const withPip = () => ({ ...paths, pip: pipForVenv(paths.venv, paths.python, python) });
  if (existsSync(paths.marker)) return withPip();

  mkdirSync(labDir, { recursive: true });
  let outsidePip: boolean | undefined;
  if (!existsSync(paths.python)) {
    // Without a pip of its own when this Python's pip can install into it (venv-pip.ts).
    outsidePip = await pipInstallsElsewhere(python);
    const withoutPip = outsidePip ? ["--without-pip"] : [];
    say(`creating a Python virtual environment in ${paths.venv} (once)`);
    const made = await run(
      python.command,
      [...python.args, "-m", "venv", ...withoutPip, paths.venv],
      { timeoutMs: 120_000 },
    );
    if (made.code !== 0)
      throw new LabError(`${python.label} -m venv failed:\n${made.output.trim()}`);
  }

  if (!venvHasPip(paths.venv) && !(outsidePip ?? (await pipInstallsElsewhere(python)))) {
    await addVenvPip(paths.venv, paths.python, say);
  }
  // The same answer doctor gives: wheels that pip resolves here, or else the index.
  const { pip } = withPip();
  const offline = (await offlineWheels(pip, paths.wheels)).state === "resolve";
  const source = offline ? ["--no-index", "--find-links", paths.wheels] : [];
  say(`installing ministack==${MINISTACK_VERSION} from ${offline ? paths.wheels : "PyPI"} (once)`);
  const installed = await run(
    pip.command,
    [
      ...pip.args,
      "install",
      "--disable-pip-version-check",
      "--progress-bar",
      "off",
      ...source,
      `ministack==${MINISTACK_VERSION}`,
    ],
    {
      timeoutMs: 600_000,
      onLine: (line) => /^(Collecting|Installing|Successfully)/.test(line) && say(`  pip: ${line}`),
    },
  );
  if (installed.code !== 0) {
    throw new LabError(
      `pip could not install ministack==${MINISTACK_VERSION} (no network? ${WHEELS_FIX}):\n` +
        lastLines(installed.output),
    );
  }
  writeFileSync(paths.marker, `${new Date().toISOString()}\n`);
  return withPip();
}

/**
 * What .lab/wheels can do for this Python on this platform, asked of pip itself, offline and in
 * about a second: the wheels are for 5 platforms and 4 Pythons in the workshop kit, for one in
 * what `lab offline-prepare` saved, and finding a `ministack-*.whl` says nothing about the rest.
 */
export type OfflineWheels =
  | { state: "resolve" }
  | { state: "none" }
  /** `why`: pip's last line, e.g. "No matching distribution found for pyyaml>=6.0". */
  | { state: "unusable"; why: string };

export async function offlineWheels(
  pip: PipCommand,
  wheels: string,
  runner: typeof run = run,
  /** pip's flags to answer for another machine (the room kit's check); none: this one. */
  forTarget: string[] = [],
): Promise<OfflineWheels> {
  if (!existsSync(wheels) || !readdirSync(wheels).some((f) => f.endsWith(".whl")))
    return { state: "none" };
  const { code, output } = await runner(
    pip.command,
    [
      ...pip.args,
      ...["install", "--dry-run", "--ignore-installed", "--no-index"],
      ...["--find-links", wheels, "--only-binary", ":all:", "--quiet"],
      "--disable-pip-version-check",
      ...forTarget,
      `ministack==${MINISTACK_VERSION}`,
    ],
    { timeoutMs: 60_000 },
  ).catch((err: Error) => ({ code: null, output: err.message }));
  if (code === 0) return { state: "resolve" };
  const lines = output.trim().split(/\r?\n/);
  return { state: "unusable", why: lines.at(-1)?.replace(/^ERROR: /, "") || `pip exited ${code}` };
}
