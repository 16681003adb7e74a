// Installing MiniStack: the pinned version from PyPI (or from wheels `lab offline-prepare`
// saved) into a venv under .lab/, once; and finding a Python 3.10+ to make that venv with.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LabError } from "../common/errors.js";
import { LAB_DIR } from "../common/paths.js";
import type { Say } from "../common/say.js";
import { run } from "./processes.js";

export const MINISTACK_VERSION = "1.5.33";
export const isWindows = process.platform === "win32";

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

/** Installs the pinned MiniStack into .lab/venv the first time; later runs reuse it. */
export async function ensureMiniStack(say: Say, labDir = LAB_DIR): Promise<MiniStackPaths> {
  const paths = ministackPaths(labDir);
  if (existsSync(paths.marker)) return paths;

  mkdirSync(labDir, { recursive: true });
  if (!existsSync(paths.python)) {
    const { command: python } = await findPython();
    say(`creating a Python virtual environment in ${paths.venv} (once)`);
    const made = await run(python, ["-m", "venv", paths.venv], { timeoutMs: 120_000 });
    if (made.code !== 0) throw new LabError(`python -m venv failed:\n${made.output.trim()}`);
  }

  const offline = hasOfflineWheels(paths);
  const source = offline ? ["--no-index", "--find-links", paths.wheels] : [];
  say(`installing ministack==${MINISTACK_VERSION} from ${offline ? paths.wheels : "PyPI"} (once)`);
  const installed = await run(
    paths.python,
    [
      "-m",
      "pip",
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
      `pip could not install ministack==${MINISTACK_VERSION} (no network? run "npm run lab -- offline-prepare" while online):\n` +
        installed.output.trim().split("\n").slice(-5).join("\n"),
    );
  }
  writeFileSync(paths.marker, `${new Date().toISOString()}\n`);
  return paths;
}

/** Wheels saved by `lab offline-prepare`: with them, installing needs no network. */
export function hasOfflineWheels(paths: MiniStackPaths): boolean {
  return (
    existsSync(paths.wheels) &&
    readdirSync(paths.wheels).some((f) => f.startsWith(`ministack-${MINISTACK_VERSION}-`))
  );
}

export interface PythonFound {
  command: string;
  version: string;
}

/** The first Python 3.10+ on this machine; a LabError says what to do when there is none. */
export async function findPython(): Promise<PythonFound> {
  const candidates = process.env.LAB_PYTHON
    ? [process.env.LAB_PYTHON]
    : isWindows
      ? ["python", "py"]
      : ["python3", "python"];
  for (const python of candidates) {
    try {
      const { code, output } = await run(
        python,
        ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        {
          timeoutMs: 15_000,
        },
      );
      if (code !== 0) continue;
      const [major = 0, minor = 0] = output.trim().split(".").map(Number);
      if (major > 3 || (major === 3 && minor >= 10))
        return { command: python, version: output.trim() };
      throw new LabError(
        `MiniStack needs Python 3.10 or newer; ${python} is ${output.trim()}. Install a newer one or set LAB_PYTHON`,
      );
    } catch (err) {
      if (err instanceof LabError) throw err;
    }
  }
  throw new LabError(
    "the MiniStack backend needs Python 3.10+, and none was found (tried " +
      `${candidates.join(", ")}). Install Python, set LAB_PYTHON, or run an emulator and set LAB_ENDPOINT`,
  );
}
