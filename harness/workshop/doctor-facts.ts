// The facts `lab doctor` judges, gathered from this machine. Every probe ends by a deadline of
// its own, with its answer or a fallback that says it did not answer (kept in `late`): a probe
// that hangs (a Docker socket that accepts and never answers) or that holds nothing alive must
// neither stall doctor nor let it stop before it prints.
import { existsSync } from "node:fs";
import { type DockerStatus, dockerStatus, imagePresent } from "../backends/docker.js";
import { DEFAULT_ENDPOINT } from "../backends/endpoint.js";
import { probeHealth } from "../backends/health.js";
import { LAMBDA_NODE_RUNTIME_IMAGE, localstackImage } from "../backends/localstack-config.js";
import {
  ministackPaths,
  type OfflineWheels,
  offlineWheels,
  venvFits,
} from "../backends/ministack-install.js";
import { type IndexProbe, probeIndex } from "../backends/package-index.js";
import { isPortFree } from "../backends/processes.js";
import { findPython, NoSupportedPython, type PythonFound } from "../backends/python.js";
import { pipForVenv, pipOf } from "../backends/venv-pip.js";
import { within } from "../common/deadline.js";
import { UsageError } from "../common/errors.js";

/** How long each probe may take (ms) before doctor goes on without its answer. */
export const PROBE_DEADLINE_MS = {
  // testcontainers' detection (a socket that never answers would hold it for good); seconds
  // even on a CI machine building images beside it: a false "no answer" fails its tests.
  docker: 30_000,
  port: 10_000, // the health GET (1.5 s) and a listen on 4566
  python: 60_000, // up to seven interpreters asked in turn
  ministack: 90_000, // pip's offline dry run (60 s at most), then the index (3 s)
  image: 10_000, // each, asked of the engine
};

/**
 * The Docker probe's deadline: PROBE_DEADLINE_MS.docker, or LAB_DOCKER_PROBE_MS when set. A test
 * that hands doctor a socket that never answers sets a few seconds: the same code, a smaller
 * input (it waited the whole 30 s, the longest unit test).
 */
export function dockerProbeDeadlineMs(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.LAB_DOCKER_PROBE_MS;
  if (given === undefined || given === "") return PROBE_DEADLINE_MS.docker;
  const ms = Number(given);
  if (!Number.isInteger(ms) || ms < 1) {
    throw new UsageError(
      `LAB_DOCKER_PROBE_MS must be a whole number of milliseconds, not "${given}"`,
    );
  }
  return ms;
}

/** A probe that did not answer by its deadline. */
export interface LateProbe {
  what: string;
  ms: number;
}

/** MiniStack's install when its probe gave no answer: nothing known to run it from. */
const NOT_KNOWN: Facts["ministack"] = { installed: false };

export interface Facts {
  node: string;
  docker: DockerStatus;
  localstackImage: string;
  /** Which images are already pulled; undefined without Docker. */
  images?: { localstack: boolean; lambdaRuntime: boolean };
  port4566:
    | { state: "free" }
    | { state: "emulator"; name: string }
    | { state: "busy" }
    /** Something held it and did not answer in time (an emulator stuck while it starts). */
    | { state: "silent" };
  /** `found`: the Pythons that ran but are not supported, as `py -3 3.14`. */
  python: PythonFound | { problem: string; found: string[] };
  ministack: {
    installed: boolean;
    /** Asked of pip only when MiniStack is not installed and a Python is there to ask. */
    wheels?: OfflineWheels;
    /** Probed only when neither the venv nor the wheels will do. */
    index?: IndexProbe;
  };
  /** The probes that did not answer by their deadline: their facts above are the fallbacks. */
  late: LateProbe[];
}

/** The probes asked and not answered yet, by what they ask about. */
const unanswered = new Set<string>();

/**
 * What doctor was still waiting for, should the process end before the facts are in (the
 * command then says so instead of exiting 0 with nothing printed: cli/exit.ts).
 */
export const unansweredProbes = (): string[] => [...unanswered];

/**
 * Each probe ends by its deadline: its answer, or `fallback` (recorded as late). The process
 * stays alive until then even if the probe's own I/O holds nothing (common/deadline.ts).
 */
function asking<T>(
  what: string,
  ms: number,
  probe: () => Promise<T>,
  fallback: T,
  late: LateProbe[],
): Promise<T> {
  unanswered.add(what);
  const gaveUp = () => {
    late.push({ what, ms });
    return fallback;
  };
  return within(ms, probe, gaveUp).finally(() => unanswered.delete(what));
}

export async function gatherMachineFacts(): Promise<Facts> {
  const late: LateProbe[] = [];
  const ms = { ...PROBE_DEADLINE_MS, docker: dockerProbeDeadlineMs() };
  const python = (): Promise<Facts["python"]> =>
    findPython().catch((err: Error) => ({
      problem: err.message,
      found: err instanceof NoSupportedPython ? err.found : [],
    }));
  const noPython = { problem: `no answer within ${ms.python / 1000} s`, found: [] };
  const found = asking("Python", ms.python, python, noPython, late);
  const noDocker: DockerStatus = {
    available: false,
    reason: `no answer within ${ms.docker / 1000} s`,
  };
  const [dockerFound, port4566, pythonFound, ministack] = await Promise.all([
    asking("the Docker engine (testcontainers)", ms.docker, dockerStatus, noDocker, late),
    asking("port 4566", ms.port, portState, { state: "silent" }, late),
    found,
    found.then((python) =>
      asking("MiniStack's install", ms.ministack, () => ministackFacts(python), NOT_KNOWN, late),
    ),
  ]);
  const image = localstackImage();
  let images: Facts["images"];
  if (dockerFound.available) {
    const present = (name: string) =>
      asking(`Docker's image ${name}`, ms.image, () => imagePresent(name), false, late);
    images = {
      localstack: await present(image),
      lambdaRuntime: await present(LAMBDA_NODE_RUNTIME_IMAGE),
    };
  }
  return {
    node: process.version,
    docker: dockerFound,
    localstackImage: image,
    images,
    port4566,
    python: pythonFound,
    ministack,
    late,
  };
}

/**
 * Only what will work now counts: installed, wheels pip resolves offline, or an index that
 * answers. Each is asked only when the one before does not hold (the index probe takes up to 3 s).
 */
export async function ministackFacts(
  python: Facts["python"],
  paths = ministackPaths(),
  probe: () => Promise<IndexProbe> = probeIndex,
): Promise<Facts["ministack"]> {
  if (!("command" in python)) return { installed: false }; // no pip to ask, nothing to install with
  // A venv of another Python is made again by the next start (ministack-install.ts): not
  // installed, and its pip is not the one that will install.
  const fits = await venvFits(paths, python);
  if (fits && existsSync(paths.marker)) return { installed: true };
  // The pip that will install: the venv's (or the Python's, pointed at it) when an earlier run
  // made the venv.
  const asker = fits ? pipForVenv(paths.venv, paths.python, python) : pipOf(python);
  const wheels = await offlineWheels(asker, paths.wheels);
  if (wheels.state === "resolve") return { installed: false, wheels };
  return { installed: false, wheels, index: await probe() };
}

async function portState(): Promise<Facts["port4566"]> {
  const health = await probeHealth(DEFAULT_ENDPOINT);
  if (health) return { state: "emulator", name: `${health.product} ${health.version}` };
  return (await isPortFree(4566)) ? { state: "free" } : { state: "busy" };
}
