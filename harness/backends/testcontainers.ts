// LocalStack in a throwaway Docker container, started by @testcontainers/localstack.
import { LocalstackContainer, type StartedLocalStackContainer } from "@testcontainers/localstack";
import { getContainerRuntimeClient } from "testcontainers";
import { LabError } from "../errors.js";
import type { Say } from "../say.js";
import type { RunningBackend } from "./backend.js";
import { probeHealth } from "./health.js";
import { describeLocalstack, localstackEnvironment, localstackImage } from "./localstack-config.js";

export interface DockerStatus {
  available: boolean;
  /** Where the engine's socket is, seen from inside a container (to mount into LocalStack). */
  socketPath?: string;
  reason: string;
}

/** Is a Docker engine reachable? testcontainers' own runtime detection answers. */
export async function dockerStatus(): Promise<DockerStatus> {
  try {
    const client = await getContainerRuntimeClient();
    const { serverVersion, operatingSystem } = client.info.containerRuntime;
    return {
      available: true,
      socketPath: client.info.containerRuntime.remoteSocketPath,
      reason: `Docker ${serverVersion} on ${operatingSystem}`,
    };
  } catch (err) {
    // Without an engine testcontainers says "Could not find a working container runtime strategy".
    return { available: false, reason: `no Docker engine reachable (${(err as Error).message})` };
  }
}

/**
 * LocalstackContainer with what the lab needs on top: the Docker socket so LocalStack can run
 * the function in a Lambda container, and the port published on 127.0.0.1 only. testcontainers
 * publishes on every interface by default, which would expose the emulator to the local network.
 */
export class LabLocalstackContainer extends LocalstackContainer {
  constructor(image: string, socketPath: string, environment: Record<string, string>) {
    super(image);
    this.withEnvironment(environment)
      .withBindMounts([{ source: socketPath, target: "/var/run/docker.sock" }])
      .withStartupTimeout(STARTUP_TIMEOUT_MS);
  }

  protected override async beforeContainerCreated(): Promise<void> {
    await super.beforeContainerCreated();
    loopbackOnly(this.hostConfig.PortBindings);
  }

  /** The options Docker will be given, for tests that check them without a Docker engine. */
  describe() {
    return { image: this.imageName.string, env: this.environment, hostConfig: this.hostConfig };
  }
}

/** Rewrites Docker port bindings in place so each is published on 127.0.0.1 only. */
export function loopbackOnly(portBindings: Record<string, unknown> | undefined): void {
  for (const bindings of Object.values(portBindings ?? {})) {
    for (const binding of bindings as { HostIp?: string }[]) binding.HostIp = "127.0.0.1";
  }
}

const STARTUP_TIMEOUT_MS = 180_000; // the first run pulls the image, about 1 GB

export async function startTestcontainers(
  say: Say,
  reason: string,
  docker?: DockerStatus,
): Promise<RunningBackend> {
  const status = docker ?? (await dockerStatus());
  if (!status.available || !status.socketPath)
    throw new LabError(`the testcontainers backend needs Docker: ${status.reason}`);
  say(
    `starting LocalStack ${describeLocalstack()} with testcontainers (the first run pulls the image)`,
  );
  const started = Date.now();
  let container: StartedLocalStackContainer;
  try {
    container = await new LabLocalstackContainer(
      localstackImage(),
      status.socketPath,
      localstackEnvironment(),
    ).start();
  } catch (err) {
    throw new LabError(
      `LocalStack did not start within ${STARTUP_TIMEOUT_MS / 1000} s: ${(err as Error).message}. ` +
        "Is the image pullable (offline? run `npm run lab -- offline-prepare` first; a later tag needs LOCALSTACK_AUTH_TOKEN)?",
    );
  }
  const endpoint = container.getConnectionUri().replace("//localhost:", "//127.0.0.1:");
  const health = await probeHealth(endpoint, 5_000);
  say(
    `LocalStack ${health?.version ?? "?"} is ready (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return {
    name: "testcontainers",
    version: `localstack ${health?.version ?? "unknown"}`,
    endpoint,
    reason,
    stop: async () => {
      await container.stop();
    },
  };
}
