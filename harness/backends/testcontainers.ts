// LocalStack in a throwaway Docker container, started by @testcontainers/localstack.
import { randomUUID } from "node:crypto";
import { LocalstackContainer, type StartedLocalStackContainer } from "@testcontainers/localstack";
// Not re-exported by the package's index; the image its reaper would start.
import { REAPER_IMAGE } from "testcontainers/build/reaper/reaper.js";
import { errorText, LabError } from "../common/errors.js";
import type { Say } from "../common/say.js";
import type { RunningBackend } from "./backend.js";
import {
  type DockerStatus,
  dockerStatus,
  type ImageCheck,
  imageReady,
  PULL_TIMEOUT_MS,
  removeLabelled,
} from "./docker.js";
import { probeHealth } from "./health.js";
import {
  describeLocalstack,
  LAMBDA_NODE_RUNTIME_IMAGE,
  localstackEnvironment,
  localstackImage,
} from "./localstack-config.js";
import { isLoopback } from "./this-machine.js";

/** Marks one LocalStack and the Lambda containers it starts, so stopping it can remove them all. */
export const RUN_LABEL = "sqs-idempotency-lab.localstack-run";

/**
 * LocalstackContainer with what the lab needs on top: the Docker socket so LocalStack can run
 * the function in a Lambda container, a label on those containers, and the port published on
 * one address only. testcontainers publishes on every interface by default, which would expose
 * the emulator to the local network.
 */
export class LabLocalstackContainer extends LocalstackContainer {
  constructor(
    image: string,
    socketPath: string,
    environment: Record<string, string>,
    private readonly publishOn = "127.0.0.1",
    readonly runId = randomUUID(),
  ) {
    super(image);
    this.withLabels({ [RUN_LABEL]: runId })
      .withEnvironment({
        ...environment,
        // testcontainers appends its session label to these flags; ours names this one run.
        LAMBDA_DOCKER_FLAGS: `-l ${RUN_LABEL}=${runId}`,
      })
      .withBindMounts([{ source: socketPath, target: "/var/run/docker.sock" }])
      .withStartupTimeout(STARTUP_TIMEOUT_MS);
  }

  /** Docker's label filter for everything this run started, LocalStack's own container included. */
  get runLabel(): string {
    return `${RUN_LABEL}=${this.runId}`;
  }

  protected override async beforeContainerCreated(): Promise<void> {
    await super.beforeContainerCreated();
    publishOnly(this.hostConfig.PortBindings, this.publishOn);
  }

  /** The options Docker will be given, for tests that check them without a Docker engine. */
  describe() {
    return { image: this.imageName.string, env: this.environment, hostConfig: this.hostConfig };
  }
}

/** Rewrites Docker port bindings in place so each is published on one address only. */
export function publishOnly(portBindings: Record<string, unknown> | undefined, address: string) {
  for (const bindings of Object.values(portBindings ?? {})) {
    for (const binding of bindings as { HostIp?: string }[]) binding.HostIp = address;
  }
}

/**
 * Where to publish LocalStack's port and connect to it. Usually loopback. Where testcontainers
 * reaches containers through a gateway address instead (it runs inside a container itself: a
 * devcontainer, a CI job, a VM with /.dockerenv), loopback would not answer there, so the port
 * is published on that address alone: the engine's bridge, not the local network.
 */
export function publishAddress(engineHost: string | undefined): string {
  if (!engineHost || isLoopback(engineHost)) return "127.0.0.1";
  return /^[\d.]+$/.test(engineHost) || engineHost.includes(":") ? engineHost : "127.0.0.1";
}

const STARTUP_TIMEOUT_MS = 180_000;

/** The images a testcontainers LocalStack needs: its own, and the Lambda runtime it runs the worker in. */
export const neededImages = (env: NodeJS.ProcessEnv = process.env) => [
  localstackImage(env),
  LAMBDA_NODE_RUNTIME_IMAGE,
];

/** Both images are here or were pulled; otherwise why not, in one line. */
export async function imagesReady(
  say: Say,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ImageCheck> {
  for (const image of neededImages(env)) {
    const ready = await imageReady(image, say, PULL_TIMEOUT_MS);
    if (!ready.ok) return ready;
  }
  return { ok: true };
}

export async function startTestcontainers(
  say: Say,
  reason: string,
  docker?: DockerStatus,
): Promise<RunningBackend> {
  const status = docker ?? (await dockerStatus());
  if (!status.available || !status.socketPath)
    throw new LabError(`the testcontainers backend needs Docker: ${status.reason}`);
  const images = await imagesReady(say);
  if (!images.ok)
    throw new LabError(
      `${images.reason}; while online run "npx lab offline-prepare" (a later tag needs LOCALSTACK_AUTH_TOKEN)`,
    );
  await reaperOrNot(say);
  const address = publishAddress(status.host);
  say(`starting LocalStack ${describeLocalstack()} with testcontainers`);
  const started = Date.now();
  const builder = new LabLocalstackContainer(
    localstackImage(),
    status.socketPath,
    localstackEnvironment(),
    address,
  );
  let container: StartedLocalStackContainer;
  try {
    container = await builder.start();
  } catch (err) {
    const seconds = (Date.now() - started) / 1000;
    // A failure at once (a refused pull, a port) is not a slow start: say which it was.
    const what =
      seconds >= STARTUP_TIMEOUT_MS / 1000 - 1
        ? `did not start within ${STARTUP_TIMEOUT_MS / 1000} s`
        : `could not start (after ${seconds.toFixed(1)} s)`;
    await removeLabelled(builder.runLabel).catch(() => 0);
    throw new LabError(`LocalStack ${what}: ${errorText(err)}`);
  }
  const endpoint = `http://${address.includes(":") ? `[${address}]` : address}:${container.getPort()}`;
  const health = await probeHealth(endpoint, 5_000);
  say(
    `LocalStack ${health?.version ?? "?"} is ready (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return {
    name: "testcontainers",
    emulator: "localstack",
    version: `localstack ${health?.version ?? "unknown"}`,
    endpoint,
    reason,
    startedByLab: true,
    stop: async () => {
      await container.stop();
      // Stopped at once, LocalStack cannot remove its Lambda containers; without testcontainers'
      // reaper nothing else would. The label finds exactly this run's.
      await removeLabelled(builder.runLabel);
    },
    containersLabel: builder.runLabel,
  };
}

/**
 * testcontainers starts its reaper (Ryuk) from Docker Hub before the first container. Offline,
 * or without Docker Hub, that pull fails and nothing starts. Then go without it, say so, and
 * rely on stop() removing what this run made.
 */
async function reaperOrNot(say: Say): Promise<void> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED === "true") return;
  const ready = await imageReady(REAPER_IMAGE, say, 30_000);
  if (ready.ok) return;
  // testcontainers reads this when it first needs the reaper, which is the next start().
  process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
  say(
    `going without testcontainers' reaper: ${ready.reason}; stopping the lab removes its containers itself`,
  );
}
