// `lab doctor`: what this machine has for each backend, and the one thing to do next for each
// missing piece. Gathering the facts touches the machine (doctor-facts.ts); judging them here is
// pure (and tested).

import { PULL_TIMEOUT_MS } from "../backends/docker.js";
import { LAMBDA_NODE_RUNTIME_IMAGE } from "../backends/localstack-config.js";
import {
  nodeVerdict,
  SUPPORTED_PYTHONS,
  supportedNodeText,
  supportedPythonText,
} from "../common/supported.js";
import type { Facts } from "./doctor-facts.js";
import { judgeMiniStack } from "./doctor-ministack.js";
import type { Choice, DoctorRow } from "./doctor-row.js";

export type { Facts, LateProbe } from "./doctor-facts.js";
export { gatherMachineFacts, ministackFacts, unansweredProbes } from "./doctor-facts.js";
export type { Choice, DoctorRow } from "./doctor-row.js";

export interface Diagnosis {
  rows: DoctorRow[];
  backends: { endpoint: boolean; testcontainers: boolean; ministack: boolean };
  /** MiniStack's backend line (what it will run from, or why it cannot) and its choice. */
  ministack: { line: string; choice: Choice };
  /** What `npm test` and `npx lab scenario` would run (LAB_BACKEND=auto), and `lab up`. */
  auto: Choice;
  labUp: Choice;
}

export function diagnose(facts: Facts): Diagnosis {
  const ministack = judgeMiniStack(facts);
  const rows: DoctorRow[] = [
    nodeRow(facts.node),
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
    pythonRow(facts.python),
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

function pythonRow(python: Facts["python"]): DoctorRow {
  // Not wider than the table's column: "3.10-3.13", where prose says "3.10 to 3.13".
  const check = `Python ${SUPPORTED_PYTHONS[0]}-${SUPPORTED_PYTHONS.at(-1)} (for MiniStack)`;
  if ("command" in python)
    return { check, ok: true, found: `${python.label} ${python.version}`, next: "" };
  return {
    check,
    ok: false,
    found: python.found.length > 0 ? `only ${python.found.join(", ")}` : "not found",
    next: `install Python ${supportedPythonText()} or set LAB_PYTHON`,
  };
}

function nodeRow(version: string): DoctorRow {
  const check = "Node.js";
  switch (nodeVerdict(version)) {
    case "supported":
      return { check, ok: true, found: version, next: "" };
    case "untested":
      return {
        check,
        ok: true,
        found: `${version} (the lab is tested on ${supportedNodeText(" and ")})`,
        next: "",
      };
    case "too old":
      return { check, ok: false, found: version, next: `install Node.js ${supportedNodeText()}` };
  }
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
    case "silent":
      return {
        check,
        ok: false,
        found: "held by something that did not answer in time",
        next: "restart or stop what holds it (docker compose restart, or down)",
      };
  }
}
