// auto: an emulator that is already running; else LocalStack in Docker (testcontainers) when a
// Docker engine is reachable; else MiniStack, which needs only Python.
import { UsageError } from "../errors.js";
import type { Say } from "../say.js";
import { BACKEND_NAMES, type BackendName, type RunningBackend } from "./backend.js";
import { DEFAULT_ENDPOINT, useEndpoint } from "./endpoint.js";
import { probeHealth } from "./health.js";
import { startMiniStack } from "./ministack.js";
import { dockerStatus, startTestcontainers } from "./testcontainers.js";

export async function chooseBackend(
  say: Say,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningBackend> {
  const forced =
    env.LAB_BACKEND && env.LAB_BACKEND !== "auto" ? parseBackendName(env.LAB_BACKEND) : undefined;
  const backend = await pick(forced, say, env);
  say(`backend: ${backend.name} (${backend.version}) at ${backend.endpoint}: ${backend.reason}`);
  return backend;
}

async function pick(
  forced: BackendName | undefined,
  say: Say,
  env: NodeJS.ProcessEnv,
): Promise<RunningBackend> {
  const ministackPort = env.LAB_MINISTACK_PORT ? Number(env.LAB_MINISTACK_PORT) : undefined;
  if (
    ministackPort !== undefined &&
    !(Number.isInteger(ministackPort) && ministackPort > 0 && ministackPort < 65536)
  ) {
    throw new UsageError(
      `LAB_MINISTACK_PORT must be a port number, got "${env.LAB_MINISTACK_PORT}"`,
    );
  }
  const ministack = (reason: string) => startMiniStack({ say, reason, port: ministackPort });

  switch (forced) {
    case "endpoint":
      return useEndpoint(env.LAB_ENDPOINT || DEFAULT_ENDPOINT, "LAB_BACKEND=endpoint");
    case "ministack":
      return ministack("LAB_BACKEND=ministack");
    case "testcontainers":
      return startTestcontainers(say, "LAB_BACKEND=testcontainers");
    case undefined:
      break;
  }
  // A LAB_ENDPOINT the user set must answer: silently starting something else would hide the mistake.
  if (env.LAB_ENDPOINT) return useEndpoint(env.LAB_ENDPOINT, "LAB_ENDPOINT is set");
  if (await probeHealth(DEFAULT_ENDPOINT)) {
    return useEndpoint(DEFAULT_ENDPOINT, `an emulator answers at ${DEFAULT_ENDPOINT}`);
  }
  const docker = await dockerStatus();
  if (docker.available) {
    return startTestcontainers(say, `no emulator at ${DEFAULT_ENDPOINT}; ${docker.reason}`, docker);
  }
  return ministack(
    `no emulator at ${DEFAULT_ENDPOINT} and ${docker.reason}, so the lab runs MiniStack (no Docker needed)`,
  );
}

export function parseBackendName(value: string): BackendName {
  if ((BACKEND_NAMES as readonly string[]).includes(value)) return value as BackendName;
  throw new UsageError(`LAB_BACKEND must be auto, ${BACKEND_NAMES.join(", ")}; got "${value}"`);
}
