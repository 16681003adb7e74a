// `lab doctor`: what this machine has for each backend, and the one thing to do next for each
// missing piece. Gathering the facts touches the machine; judging them is pure (and tested).

import { existsSync } from "node:fs";
import {
  type DockerStatus,
  dockerStatus,
  imagePresent,
  PULL_TIMEOUT_MS,
} from "../backends/docker.js";
import { DEFAULT_ENDPOINT } from "../backends/endpoint.js";
import { probeHealth } from "../backends/health.js";
import { LAMBDA_NODE_RUNTIME_IMAGE, localstackImage } from "../backends/localstack-config.js";
import {
  ministackPaths,
  type OfflineWheels,
  offlineWheels,
} from "../backends/ministack-install.js";
import { type IndexProbe, probeIndex } from "../backends/package-index.js";
import { isPortFree } from "../backends/processes.js";
import { findPython, type PythonFound, pythonLabel } from "../backends/python.js";
import { judgeMiniStack } from "./doctor-ministack.js";

export interface Facts {
  node: string;
  docker: DockerStatus;
  localstackImage: string;
  /** Which images are already pulled; undefined without Docker. */
  images?: { localstack: boolean; lambdaRuntime: boolean };
  port4566: { state: "free" } | { state: "emulator"; name: string } | { state: "busy" };
  python: PythonFound | { problem: string };
  ministack: {
    installed: boolean;
    /** Asked of pip only when MiniStack is not installed and a Python is there to ask. */
    wheels?: OfflineWheels;
    /** Probed only when neither the venv nor the wheels will do. */
    index?: IndexProbe;
  };
}

export interface DoctorRow {
  check: string;
  /** null: does not apply here (an image check without Docker). */
  ok: boolean | null;
  found: string;
  next: string;
}

export interface Choice {
  backend: "endpoint" | "testcontainers" | "ministack" | "none";
  why: string;
}

export interface Diagnosis {
  rows: DoctorRow[];
  backends: { endpoint: boolean; testcontainers: boolean; ministack: boolean };
  /** MiniStack's backend line (what it will run from, or why it cannot) and its choice. */
  ministack: { line: string; choice: Choice };
  /** What `npm test` and `npx lab scenario` would run (LAB_BACKEND=auto), and `lab up`. */
  auto: Choice;
  labUp: Choice;
}

/** The probes asked and not answered yet, by what they ask about. */
const unanswered = new Set<string>();

/**
 * What doctor was still waiting for, should the process end before the facts are in (the
 * command then says so instead of exiting 0 with nothing printed: cli/exit.ts).
 */
export const unansweredProbes = (): string[] => [...unanswered];

function asking<T>(what: string, answer: Promise<T>): Promise<T> {
  unanswered.add(what);
  return answer.finally(() => unanswered.delete(what));
}

export async function gatherMachineFacts(): Promise<Facts> {
  const found: Promise<Facts["python"]> = asking("Python", findPython()).catch((err: Error) => ({
    problem: err.message,
  }));
  const [docker, port4566, python, ministack] = await Promise.all([
    asking("the Docker engine (testcontainers)", dockerStatus()),
    asking("port 4566", portState()),
    found,
    found.then((python) => asking("MiniStack's install", ministackFacts(python))),
  ]);
  const image = localstackImage();
  let images: Facts["images"];
  if (docker.available) {
    images = {
      localstack: await asking(`Docker's image ${image}`, imagePresent(image)),
      lambdaRuntime: await asking(
        `Docker's image ${LAMBDA_NODE_RUNTIME_IMAGE}`,
        imagePresent(LAMBDA_NODE_RUNTIME_IMAGE),
      ),
    };
  }
  return {
    node: process.version,
    docker,
    localstackImage: image,
    images,
    port4566,
    python,
    ministack,
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
  if (existsSync(paths.marker)) return { installed: true };
  if (!("command" in python)) return { installed: false }; // no pip to ask, nothing to install with
  // The venv's own pip when an earlier run made the venv: that is the one that will install.
  const asker = existsSync(paths.python) ? { command: paths.python, args: [] } : python;
  const wheels = await offlineWheels(asker, paths.wheels);
  if (wheels.state === "resolve") return { installed: false, wheels };
  return { installed: false, wheels, index: await probe() };
}

async function portState(): Promise<Facts["port4566"]> {
  const health = await probeHealth(DEFAULT_ENDPOINT);
  if (health) return { state: "emulator", name: `${health.product} ${health.version}` };
  return (await isPortFree(4566)) ? { state: "free" } : { state: "busy" };
}

export function diagnose(facts: Facts): Diagnosis {
  const [major = 0, minor = 0] = facts.node.slice(1).split(".").map(Number);
  const nodeOk = major > 20 || (major === 20 && minor >= 12);
  const pythonOk = "command" in facts.python;
  const ministack = judgeMiniStack(facts);
  const rows: DoctorRow[] = [
    {
      check: "Node.js",
      ok: nodeOk,
      found: facts.node,
      next: nodeOk ? "" : "install Node.js 20.12 or newer",
    },
    {
      check: "Docker engine",
      ok: facts.docker.available,
      found: facts.docker.reason,
      next: facts.docker.available
        ? ""
        : "start Docker to use LocalStack (optional: MiniStack needs no Docker)",
    },
    imageRow(
      `LocalStack image ${facts.localstackImage}`,
      facts.images?.localstack,
      facts.localstackImage,
    ),
    imageRow(
      `Lambda runtime image ${LAMBDA_NODE_RUNTIME_IMAGE}`,
      facts.images?.lambdaRuntime,
      LAMBDA_NODE_RUNTIME_IMAGE,
    ),
    portRow(facts.port4566),
    {
      check: "Python 3.10+ (for MiniStack)",
      ok: pythonOk,
      found:
        "command" in facts.python
          ? `${pythonLabel(facts.python)} ${facts.python.version}`
          : "not found",
      next: "command" in facts.python ? "" : "install Python 3.10+ or set LAB_PYTHON",
    },
    ...ministack.rows,
  ];
  const backends = {
    endpoint: facts.port4566.state === "emulator",
    // Offline, an engine without LocalStack's images cannot start it.
    testcontainers: facts.docker.available && missingImages(facts).length === 0,
    ministack: ministack.ok,
  };
  return {
    rows,
    backends,
    ministack: { line: ministack.line, choice: ministack.choice },
    ...autoChoices(facts, ministack.choice),
  };
}

function missingImages(facts: Facts): string[] {
  return [
    ...(facts.images?.localstack ? [] : [facts.localstackImage]),
    ...(facts.images?.lambdaRuntime ? [] : [LAMBDA_NODE_RUNTIME_IMAGE]),
  ];
}

/** The same order as backends/choose.ts, told from the facts alone (doctor never pulls). */
function autoChoices(facts: Facts, ministack: Choice): Pick<Diagnosis, "auto" | "labUp"> {
  if (facts.port4566.state === "emulator") {
    const running: Choice = {
      backend: "endpoint",
      why: `${facts.port4566.name} answers at localhost:4566`,
    };
    return { auto: running, labUp: running };
  }
  const labUp: Choice = facts.docker.available
    ? {
        ...ministack,
        why: `${ministack.why}; a testcontainers LocalStack would not outlive the command (docker compose up -d for LocalStack)`,
      }
    : ministack;
  if (!facts.docker.available) return { auto: ministack, labUp };
  const missing = missingImages(facts);
  if (missing.length === 0) {
    return {
      auto: { backend: "testcontainers", why: "Docker is up and LocalStack's images are here" },
      labUp,
    };
  }
  return {
    auto: {
      ...ministack,
      why: `Docker is up but ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not pulled: auto tries a pull first (at most ${PULL_TIMEOUT_MS / 1000} s), and offline it runs ${ministack.backend === "none" ? "nothing" : "MiniStack"}`,
    },
    labUp,
  };
}

function imageRow(check: string, present: boolean | undefined, image: string): DoctorRow {
  if (present === undefined)
    return { check, ok: null, found: "cannot tell without Docker", next: "" };
  return {
    check,
    ok: present,
    found: present ? "pulled" : "not pulled",
    next: present ? "" : `npx lab offline-prepare (or docker pull ${image})`,
  };
}

function portRow(port: Facts["port4566"]): DoctorRow {
  const check = "port 4566 on localhost";
  switch (port.state) {
    case "emulator":
      return { check, ok: true, found: `${port.name} answers there`, next: "" };
    case "free":
      return { check, ok: true, found: "free", next: "" };
    case "busy":
      return {
        check,
        ok: false,
        found: "in use by something that is not an emulator",
        next: "free port 4566 before docker compose up (MiniStack uses any free port)",
      };
  }
}
