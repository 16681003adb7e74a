// Finding a Python 3.10+ to make MiniStack's venv with, on every platform the workshop meets.
// On Windows the python.org installer always brings the `py` launcher, while `python` may be
// missing from PATH or be the Microsoft Store's stub (it prints an advert and exits 9009).
import { LabError } from "../common/errors.js";
import { run } from "./processes.js";

/** A Python as run: the command and the arguments that come before the script's own. */
export interface PythonCommand {
  command: string;
  args: string[];
}

export interface PythonFound extends PythonCommand {
  version: string;
}

/** How the user would type it: `py -3`, `python3`. */
export const pythonLabel = (python: PythonCommand): string =>
  [python.command, ...python.args].join(" ");

/**
 * What to try, in order. LAB_PYTHON alone when set: a Python the user named and that does not
 * run is their mistake to hear about, not a reason to quietly use another one.
 */
export function pythonCandidates(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): PythonCommand[] {
  if (env.LAB_PYTHON) return [{ command: env.LAB_PYTHON, args: [] }];
  return platform === "win32"
    ? [
        { command: "py", args: ["-3"] },
        { command: "python", args: [] },
        { command: "python3", args: [] },
      ]
    : [
        { command: "python3", args: [] },
        { command: "python", args: [] },
      ];
}

export interface FindPythonOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Runs a command to completion; the unit tests pass a fake one. */
  runner?: typeof run;
}

/** The first Python 3.10+ on this machine; a LabError says what to do when there is none. */
export async function findPython(options: FindPythonOptions = {}): Promise<PythonFound> {
  const { platform = process.platform, env = process.env, runner = run } = options;
  const candidates = pythonCandidates(platform, env);
  const tooOld: string[] = [];
  for (const python of candidates) {
    let answer: Awaited<ReturnType<typeof run>>;
    try {
      answer = await runner(
        python.command,
        [...python.args, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        { timeoutMs: 15_000 },
      );
    } catch {
      continue; // not on PATH
    }
    // Its own line: a Python may also print a warning on stderr, which comes in the same output.
    const version = answer.output
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => /^\d+\.\d+$/.test(line));
    if (answer.code !== 0 || !version) continue;
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (major > 3 || (major === 3 && minor >= 10)) return { ...python, version };
    // `py -3` may pick an old 3.x while `python` is new: keep looking.
    tooOld.push(`${pythonLabel(python)} is ${version}`);
  }
  if (tooOld.length > 0) {
    throw new LabError(
      `MiniStack needs Python 3.10 or newer; ${tooOld.join(", ")}. Install a newer one or set LAB_PYTHON`,
    );
  }
  throw new LabError(
    "the MiniStack backend needs Python 3.10+, and none was found (tried " +
      `${candidates.map(pythonLabel).join(", ")}). Install Python, set LAB_PYTHON, or run an emulator and set LAB_ENDPOINT`,
  );
}
