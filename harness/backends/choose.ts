// auto: an emulator that is already running; else LocalStack in Docker (testcontainers) when a
// Docker engine is reachable and LocalStack's images are here or can be pulled; else MiniStack,
// which needs only Python. Every choice says why, so a fallback is never a surprise.
import { UsageError } from "../common/errors.js";
import type { Say } from "../common/say.js";
import { BACKEND_NAMES, type BackendName, type RunningBackend } from "./backend.js";
import { dockerStatus } from "./docker.js";
import { DEFAULT_ENDPOINT, useEndpoint } from "./endpoint.js";
import { probeHealth } from "./health.js";
import { startMiniStack } from "./ministack.js";

// LocalStack through testcontainers, loaded only when Docker is in play (it takes most of a second).
const withTestcontainers = () => import("./testcontainers.js");

export interface ChooseOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * `lab up`: the emulator must outlive this process. A testcontainers LocalStack ends with
   * the process that started it, so it is never chosen; MiniStack is left running.
   */
  lasting?: boolean;
}

export async function chooseBackend(
  say: Say,
  options: ChooseOptions = {},
): Promise<RunningBackend> {
  const backend = await pick(say, { env: process.env, lasting: false, ...options });
  say(`backend: ${backend.name} (${backend.version}) at ${backend.endpoint}: ${backend.reason}`);
  return backend;
}

const TESTCONTAINERS_ENDS =
  "a testcontainers LocalStack ends with the process that started it; for LocalStack that stays up run `docker compose up -d` first";

async function pick(say: Say, options: Required<ChooseOptions>): Promise<RunningBackend> {
  const { env, lasting } = options;
  const forced =
    env.LAB_BACKEND && env.LAB_BACKEND !== "auto" ? parseBackendName(env.LAB_BACKEND) : undefined;
  switch (forced) {
    case "endpoint":
      return useEndpoint(env.LAB_ENDPOINT || DEFAULT_ENDPOINT, "LAB_BACKEND=endpoint");
    case "ministack":
      return ministack(say, options, "LAB_BACKEND=ministack");
    case "testcontainers":
      if (lasting) throw new UsageError(TESTCONTAINERS_ENDS);
      return (await withTestcontainers()).startTestcontainers(say, "LAB_BACKEND=testcontainers");
    case undefined:
      break;
  }
  // A LAB_ENDPOINT the user set must answer: silently starting something else would hide the mistake.
  if (env.LAB_ENDPOINT) return useEndpoint(env.LAB_ENDPOINT, "LAB_ENDPOINT is set");
  if (await probeHealth(DEFAULT_ENDPOINT)) {
    return useEndpoint(DEFAULT_ENDPOINT, `an emulator answers at ${DEFAULT_ENDPOINT}`);
  }
  return startEmulator(say, options, `no emulator at ${DEFAULT_ENDPOINT}`);
}

/**
 * auto, once no emulator is running: LocalStack in Docker if it can start here, else MiniStack.
 * `found` opens each reason (what was found so far).
 */
export async function startEmulator(
  say: Say,
  options: Required<ChooseOptions>,
  found: string,
): Promise<RunningBackend> {
  const docker = await dockerStatus();
  if (!docker.available) {
    return ministack(say, options, `${found} and ${docker.reason}, so the lab runs MiniStack`);
  }
  if (options.lasting) {
    return ministack(say, options, `${found}; Docker is up, but ${TESTCONTAINERS_ENDS}`);
  }
  // An engine alone is not enough: offline, without LocalStack's images, nothing would start.
  const { imagesReady, startTestcontainers } = await withTestcontainers();
  const images = await imagesReady(say, options.env);
  if (!images.ok) {
    return ministack(say, options, `${found}; Docker is up, but ${images.reason}, so MiniStack`);
  }
  return startTestcontainers(say, `${found}; ${docker.reason}`, docker);
}

function ministack(say: Say, { env, lasting }: Required<ChooseOptions>, reason: string) {
  return startMiniStack({ say, reason, port: ministackPort(env), keepRunning: lasting });
}

function ministackPort(env: NodeJS.ProcessEnv): number | undefined {
  if (!env.LAB_MINISTACK_PORT) return undefined;
  const port = Number(env.LAB_MINISTACK_PORT);
  if (Number.isInteger(port) && port > 0 && port < 65536) return port;
  throw new UsageError(`LAB_MINISTACK_PORT must be a port number, got "${env.LAB_MINISTACK_PORT}"`);
}

export function parseBackendName(value: string): BackendName {
  if ((BACKEND_NAMES as readonly string[]).includes(value)) return value as BackendName;
  throw new UsageError(`LAB_BACKEND must be auto, ${BACKEND_NAMES.join(", ")}; got "${value}"`);
}
