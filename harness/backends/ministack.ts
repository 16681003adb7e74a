// The embedded backend: MiniStack (MIT, from PyPI) in a venv under .lab/, started as a child
// process on a free loopback port. Its Lambda executor runs Node handlers as local processes,
// so the lab needs no Docker.
import { spawn } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LabError } from "../common/errors.js";
import { holdAt } from "../common/hold.js";
import { ownProcess } from "../common/interrupt.js";
import { LAB_DIR } from "../common/paths.js";
import { labRegion } from "../common/region.js";
import type { Say } from "../common/say.js";
import { sleep } from "../common/sleep.js";
import type { RunningBackend } from "./backend.js";
import { probeHealth } from "./health.js";
import { ensureMiniStack, isWindows, MINISTACK_VERSION } from "./ministack-install.js";
import {
  freeLoopbackPort,
  isPortFree,
  onceOnly,
  signalGroup,
  stopChild,
  stopGroupByPid,
} from "./processes.js";

const SERVICES = "sqs,dynamodb,lambda,logs,iam,sts";

/**
 * MiniStack's temporary folder. It unpacks the function (1.1 MB) into a new folder of the temp
 * dir for every Lambda environment it starts, and leaves each behind: 241 folders, 265 MB, per
 * test run. In a folder of its own, stopping it removes them all. Not under .lab/: Node would
 * read the function as an ES module there (the project's package.json says "type": "module").
 */
export const ministackTempDir = (port: number) => path.join(tmpdir(), `${TEMP_PREFIX}${port}`);
const TEMP_PREFIX = "sqs-idempotency-lab-ministack-";

/**
 * Removes a stopped MiniStack's temporary folder. One a process still holds (on Windows taskkill
 * ends the tree a moment later) stays until the next start's sweep.
 */
export function removeMiniStackTemp(port: number): void {
  try {
    rmSync(ministackTempDir(port), { recursive: true, force: true, maxRetries: 3 });
  } catch {}
}

/** The pid of the MiniStack a temp folder belongs to, written there when it starts. */
const OWNER_FILE = ".owner-pid";

/**
 * Its MiniStack still runs. The port alone cannot say: a command in another network namespace
 * (the offline room's, `unshare -n`) finds every port free, and a folder's own time stands still
 * once its functions are unpacked.
 */
function ownerRuns(port: number): boolean {
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(path.join(ministackTempDir(port), OWNER_FILE), "utf8"));
  } catch {}
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}

/**
 * The temporary folders of MiniStacks that no longer run: their MiniStack's pid is gone, nothing
 * listens on their port, and nothing was written there for a minute (one that another command is
 * starting does not listen yet).
 */
async function sweepStaleTemp(): Promise<void> {
  const idle = (port: number) =>
    Date.now() - (statSync(ministackTempDir(port), { throwIfNoEntry: false })?.mtimeMs ?? 0) >
    STARTING_MS;
  for (const name of readdirSync(tmpdir())) {
    const port = Number(name.startsWith(TEMP_PREFIX) ? name.slice(TEMP_PREFIX.length) : "");
    if (!Number.isInteger(port) || port <= 0 || port > 65_535 || !idle(port)) continue;
    // Idle asked again after the wait: a start may have taken the folder meanwhile.
    if (!ownerRuns(port) && (await isPortFree(port)) && idle(port)) removeMiniStackTemp(port);
  }
}
const STARTING_MS = 60_000;

/**
 * Makes the folder MiniStack unpacks functions in: this user's only (the system's temp dir may be
 * shared), or one line saying whose it is.
 */
function makeTempDir(port: number): void {
  const dir = ministackTempDir(port);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { uid } = statSync(dir);
  if (process.getuid && uid !== process.getuid()) {
    throw new LabError(
      `${dir} belongs to another user; remove it, or pick another port with LAB_MINISTACK_PORT`,
    );
  }
  chmodSync(dir, 0o700);
}

/** The environment MiniStack runs with: loopback only, just the services the lab needs. */
export function ministackEnv(
  port: number,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const temp = ministackTempDir(port);
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
    AWS_DEFAULT_REGION: labRegion(base),
    PYTHONUNBUFFERED: "1",
    // Python's tempfile reads the first of these that is set, on Windows too.
    TMPDIR: temp,
    TEMP: temp,
    TMP: temp,
  };
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
  await sweepStaleTemp();
  makeTempDir(port);
  const logFile = path.join(LAB_DIR, `ministack-${port}.log`);
  const out = openSync(logFile, "a");
  say(
    `starting MiniStack ${MINISTACK_VERSION} on ${endpoint} (log: ${path.relative(process.cwd(), logFile)})`,
  );

  const started = Date.now();
  // Its own process group, so stopping it also ends the Node workers it runs functions in.
  // (Windows has no groups: taskkill /T ends the tree. There, detached only lets it outlive
  // `lab up`, and would give it a console window of its own, which closing would kill: hidden.)
  const child = spawn(paths.python, ["-m", "ministack"], {
    env: ministackEnv(port),
    stdio: ["ignore", out, out],
    detached: !isWindows || options.keepRunning,
    windowsHide: true,
  });
  if (child.pid) writeFileSync(path.join(ministackTempDir(port), OWNER_FILE), String(child.pid));
  // Even if the run ends abruptly; a folder still held is removed by the next start's sweep.
  const onExit = () => {
    if (child.pid) signalGroup(child.pid);
    removeMiniStackTemp(port);
  };
  let release = () => {};
  const letGo = () => {
    process.off("exit", onExit);
    release();
  };
  const stop = onceOnly(async () => {
    await stopChild(child);
    removeMiniStackTemp(port);
    // Only once it is gone: an exit while it stops must still kill it. After, the pid and the
    // port may become another process's.
    letGo();
  });
  // Owned from the start, even one meant to outlive the command (`lab up`): an interrupt, or a
  // deploy that fails, before the command has remembered it would leave it running unknown to
  // `lab down`. `keep()` hands it over once it is remembered.
  process.once("exit", onExit);
  release = ownProcess({ stop, kill: onExit });
  if (options.keepRunning) child.unref();

  const timeoutMs = options.startupTimeoutMs ?? 30_000;
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  await holdAt("ministack-starting", say);
  while (Date.now() - started < timeoutMs) {
    if (exited !== undefined) {
      await stop();
      throw new LabError(
        `MiniStack exited with code ${exited} while starting; see ${logFile}:\n${tail(logFile)}`,
      );
    }
    const health = await probeHealth(endpoint, 500);
    if (health) {
      say(`MiniStack ${health.version} is ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return {
        name: "ministack",
        emulator: "ministack",
        version: health.version,
        endpoint,
        reason: options.reason,
        pid: child.pid,
        stop,
        keep: letGo,
      };
    }
    await sleep(100);
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

/** Stops a MiniStack that an earlier `lab up` left running, the workers in its group, and its temp folder. */
export async function stopMiniStackByPid(pid: number, port: number): Promise<void> {
  await stopGroupByPid(pid);
  removeMiniStackTemp(port);
}
