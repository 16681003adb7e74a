// Finding a Python to make MiniStack's venv with, one the kit has wheels for (3.10 to 3.13), on
// every platform the workshop meets.
// On Windows the python.org installer always brings the `py` launcher, while `python` may be
// missing from PATH or be the Microsoft Store's stub (it prints an advert and exits 9009).
import { LabError } from "../common/errors.js";
import { isSupportedPython, SUPPORTED_PYTHONS, supportedPythonText } from "../common/supported.js";
import { run } from "./processes.js";

/** A Python as run: the command and the arguments that come before the script's own. */
export interface PythonCommand {
  command: string;
  args: string[];
}

/**
 * A Python found: `command` is the interpreter itself (its sys.executable), which every later run
 * uses, not the launcher that found it. A launcher costs a chain of processes at each run (one of
 * pyenv's shims about 0.1 s of CPU more than the interpreter), and pyenv's runs `pyenv rehash`
 * after every `-m pip install`: two at once (the kit's check asks pip for five platforms side by
 * side) fail on its lock, and the shim exits 1 although pip succeeded.
 */
export interface PythonFound extends PythonCommand {
  version: string;
  /** How the user would type it: `py -3.12`, `python3.11`. */
  label: string;
}

/** How the user would type it: `py -3`, `python3`. */
export const pythonLabel = (python: PythonCommand): string =>
  [python.command, ...python.args].join(" ");

/**
 * What to try, in order: each supported version by name, newest first, then the unversioned
 * commands, whose version is whatever was installed last (`py -3` picks the newest, 3.14 too).
 * LAB_PYTHON alone when set: a Python the user named and that does not run is their mistake to
 * hear about, not a reason to quietly use another one.
 */
export function pythonCandidates(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): PythonCommand[] {
  if (env.LAB_PYTHON) return [{ command: env.LAB_PYTHON, args: [] }];
  const newestFirst = [...SUPPORTED_PYTHONS].reverse();
  return platform === "win32"
    ? [
        ...newestFirst.map((v) => ({ command: "py", args: [`-${v}`] })),
        { command: "py", args: ["-3"] },
        { command: "python", args: [] },
        { command: "python3", args: [] },
      ]
    : [
        ...newestFirst.map((v) => ({ command: `python${v}`, args: [] })),
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

/** No Python the lab can use: `found` lists the ones that ran, each as `py -3 3.14`. */
export class NoSupportedPython extends LabError {
  constructor(
    message: string,
    readonly found: string[],
  ) {
    super(message);
  }
}

/** Its `major.minor`, or undefined when it does not run (not on PATH, the Store's stub). */
export async function pythonVersion(
  python: PythonCommand,
  runner: typeof run = run,
): Promise<string | undefined> {
  return (await askPython(python, runner))?.version;
}

/** Its version and the interpreter it runs (empty when Python cannot say, as embedded ones). */
async function askPython(
  python: PythonCommand,
  runner: typeof run,
): Promise<{ version: string; executable: string } | undefined> {
  let answer: Awaited<ReturnType<typeof run>>;
  try {
    answer = await runner(
      python.command,
      [
        ...python.args,
        "-c",
        "import sys; print('%d.%d' % sys.version_info[:2]); print(sys.executable or '')",
      ],
      { timeoutMs: 15_000 },
    );
  } catch {
    return undefined; // not on PATH
  }
  // Its own lines: a Python may also print a warning on stderr, which comes in the same output.
  const lines = answer.output.split(/\r?\n/).map((line) => line.trim());
  const at = lines.findIndex((line) => /^\d+\.\d+$/.test(line));
  if (answer.code !== 0 || at < 0) return undefined;
  return { version: lines[at] as string, executable: lines[at + 1] ?? "" };
}

/**
 * The first supported Python on this machine; a LabError says what to do when there is none.
 * Looked for once per process and PATH (each look may run seven Pythons): doctor, the venv and
 * the kit's check all ask. A test's runner is asked every time.
 */
export function findPython(options: FindPythonOptions = {}): Promise<PythonFound> {
  if (options.runner) return lookForPython(options);
  const { platform = process.platform, env = process.env } = options;
  const key = JSON.stringify([platform, env.LAB_PYTHON, env.PATH ?? env.Path]);
  let found = pythonsFound.get(key);
  if (!found) {
    found = lookForPython(options);
    pythonsFound.set(key, found);
    // None found may be mended while the process runs: the next look starts again.
    found.catch(() => pythonsFound.delete(key));
  }
  return found;
}

const pythonsFound = new Map<string, Promise<PythonFound>>();

async function lookForPython(options: FindPythonOptions): Promise<PythonFound> {
  const { platform = process.platform, env = process.env, runner = run } = options;
  const candidates = pythonCandidates(platform, env);
  const found: string[] = [];
  for (const python of candidates) {
    const answer = await askPython(python, runner);
    if (!answer) continue;
    const { version, executable } = answer;
    const label = pythonLabel(python);
    if (isSupportedPython(version)) {
      return executable
        ? { command: executable, args: [], version, label }
        : { ...python, version, label };
    }
    // `py -3` may pick 3.14 while `python` is 3.12: keep looking.
    found.push(`${label} ${version}`);
  }
  const needed = `MiniStack needs Python ${supportedPythonText()} (the versions the kit's wheels are for)`;
  if (found.length > 0) {
    throw new NoSupportedPython(
      `${needed}; found only ${found.join(", ")}. Install one of them, or set LAB_PYTHON to one`,
      found,
    );
  }
  throw new NoSupportedPython(
    `${needed}, and none was found (tried ${candidates.map(pythonLabel).join(", ")}). ` +
      "Install Python, set LAB_PYTHON, or run an emulator and set LAB_ENDPOINT",
    [],
  );
}
