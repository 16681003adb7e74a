// The embedded backend: MiniStack (MIT, from PyPI) in a venv under .lab/, started as a child
// process on a free loopback port. Its Lambda executor runs Node handlers as local processes,
// so the lab needs no Docker.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LabError } from "../common/errors.js";
import { LAB_DIR } from "../common/paths.js";
import type { Say } from "../common/say.js";
import type { RunningBackend } from "./backend.js";
import { probeHealth } from "./health.js";
import { freeLoopbackPort, isPortFree, run } from "./processes.js";

export const MINISTACK_VERSION = "1.5.33";
const SERVICES = "sqs,dynamodb,lambda,logs,iam,sts";
const isWindows = process.platform === "win32";

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

/** The environment MiniStack runs with: loopback only, just the services the lab needs. */
export function ministackEnv(
  port: number,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  // The user's real AWS identity must not leak into the emulator or the functions it runs.
  for (const key of Object.keys(env)) if (key.startsWith("AWS_")) delete env[key];
  return {
    ...env,
    GATEWAY_PORT: String(port),
    BIND_HOST: "127.0.0.1", // MiniStack binds 0.0.0.0 unless told otherwise
    MINISTACK_HOST: "127.0.0.1",
    SERVICES,
    IOT_MTLS_ENABLED: "0", // otherwise it opens an MQTT listener on 0.0.0.0:8883
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_DEFAULT_REGION: base.LAB_REGION || "us-east-1",
    PYTHONUNBUFFERED: "1",
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

export interface MiniStackOptions {
  say: Say;
  reason: string;
  port?: number;
  startupTimeoutMs?: number;
  /** Keep running after this process exits (`lab up`); `lab down` stops it by its pid. */
  keepRunning?: boolean;
}

export async function startMiniStack(options: MiniStackOptions): Promise<RunningBackend> {
  const { say } = options;
  const paths = await ensureMiniStack(say);
  const port = options.port ?? (await freeLoopbackPort());
  if (options.port && !(await isPortFree(port))) {
    throw new LabError(
      `port ${port} on 127.0.0.1 is in use; free it or pick another with LAB_MINISTACK_PORT`,
    );
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const logFile = path.join(LAB_DIR, `ministack-${port}.log`);
  const out = openSync(logFile, "a");
  say(
    `starting MiniStack ${MINISTACK_VERSION} on ${endpoint} (log: ${path.relative(process.cwd(), logFile)})`,
  );

  const started = Date.now();
  // Its own process group, so stopping it also ends the Node workers it runs functions in.
  const child = spawn(paths.python, ["-m", "ministack"], {
    env: ministackEnv(port),
    stdio: ["ignore", out, out],
    detached: !isWindows || options.keepRunning,
  });
  const stop = onceOnly(() => stopProcess(child));
  if (options.keepRunning) child.unref();
  else process.once("exit", () => killNow(child)); // even if the run ends abruptly

  const timeoutMs = options.startupTimeoutMs ?? 30_000;
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  while (Date.now() - started < timeoutMs) {
    if (exited !== undefined) {
      throw new LabError(
        `MiniStack exited with code ${exited} while starting; see ${logFile}:\n${tail(logFile)}`,
      );
    }
    const health = await probeHealth(endpoint, 500);
    if (health) {
      say(`MiniStack ${health.version} is ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return {
        name: "ministack",
        version: health.version,
        endpoint,
        reason: options.reason,
        pid: child.pid,
        stop,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new LabError(
    `MiniStack did not become healthy within ${timeoutMs / 1000} s; see ${logFile}:\n${tail(logFile)}`,
  );
}

function tail(file: string, lines = 8): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}

function killNow(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  try {
    if (isWindows) spawn("taskkill", ["/pid", String(child.pid), "/T", "/F"], { stdio: "ignore" });
    else process.kill(-child.pid, signal); // the whole process group: MiniStack and its workers
  } catch {
    // already gone
  }
}

/** SIGTERM the whole group, give it a few seconds to shut down cleanly, then SIGKILL. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    killNow(child, "SIGTERM");
    const timer = setTimeout(() => killNow(child), 5_000);
    await exited;
    clearTimeout(timer);
  }
  // Workers in its group may outlive it by a moment; make sure none is left behind.
  killNow(child);
}

/** Stops a MiniStack that an earlier `lab up` left running, and the workers in its group. */
export async function stopMiniStackByPid(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (isWindows) spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore" });
      else process.kill(-pid, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + 5_000;
  while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  signal("SIGKILL");
}
