// What the lab asks of a Docker engine: is one reachable, are the images it needs here (or can
// they be pulled in bounded time), and removing the containers it labelled. Everything goes
// through testcontainers' own runtime client, so it finds the engine the way testcontainers does.
import { errorText } from "../common/errors.js";
import type { Say } from "../common/say.js";

// testcontainers takes most of a second to load: only a command that talks to Docker waits for it.
const testcontainers = () => import("testcontainers");
const getContainerRuntimeClient = async () => (await testcontainers()).getContainerRuntimeClient();
const imageName = async (image: string) => (await testcontainers()).ImageName.fromString(image);

/** Long enough for a first pull of LocalStack (about 1 GB) on a fair network; offline fails at once. */
export const PULL_TIMEOUT_MS = 300_000;

export interface DockerStatus {
  available: boolean;
  /** Where the engine's socket is, seen from inside a container (to mount into LocalStack). */
  socketPath?: string;
  /** The host testcontainers reaches published ports on ("localhost", or a gateway address). */
  host?: string;
  reason: string;
}

/** Is a Docker engine reachable? testcontainers' own runtime detection answers. */
export async function dockerStatus(): Promise<DockerStatus> {
  try {
    const client = await getContainerRuntimeClient();
    const { serverVersion, operatingSystem, remoteSocketPath, host } = client.info.containerRuntime;
    return {
      available: true,
      socketPath: remoteSocketPath,
      host,
      reason: `Docker ${serverVersion} on ${operatingSystem}`,
    };
  } catch (err) {
    // Without an engine testcontainers says "Could not find a working container runtime strategy".
    return { available: false, reason: `no Docker engine reachable (${errorText(err)})` };
  }
}

export async function imagePresent(image: string): Promise<boolean> {
  const client = await getContainerRuntimeClient();
  return client.image.exists(await imageName(image)).catch(() => false);
}

/** Pulls the image, however long it takes (offline-prepare: a person is watching). */
export async function pullImage(image: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.image.pull(await imageName(image));
}

export type ImageCheck = { ok: true } | { ok: false; reason: string };

/**
 * The image is here, or a pull of it finished within `timeoutMs`. Offline, the pull fails at
 * once; on a slow network it may outlast the bound, and the caller picks something else.
 */
export async function imageReady(image: string, say: Say, timeoutMs: number): Promise<ImageCheck> {
  if (await imagePresent(image)) return { ok: true };
  say(`${image} is not here; pulling it (at most ${Math.round(timeoutMs / 1000)} s)`);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    pullImage(image).then(
      () => undefined,
      (err: unknown) => errorText(err),
    ),
    new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`the pull took longer than ${timeoutMs / 1000} s`),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  // A pull can end "successfully" with an error inside its progress stream: ask again.
  if (outcome === undefined && (await imagePresent(image))) return { ok: true };
  return {
    ok: false,
    reason: `${image} is not here and could not be pulled (${pullError(outcome)})`,
  };
}

/** The ids of every container, running or not, that carries this label ("key=value"). */
export async function containersLabelled(label: string): Promise<string[]> {
  const { dockerode } = (await getContainerRuntimeClient()).container;
  const found = await dockerode.listContainers({ all: true, filters: { label: [label] } });
  return found.map((c) => c.Id);
}

/** Removes every container that carries this label; returns how many there were. */
export async function removeLabelled(label: string): Promise<number> {
  const { dockerode } = (await getContainerRuntimeClient()).container;
  const ids = await containersLabelled(label);
  const remove = (id: string) => dockerode.getContainer(id).remove({ force: true });
  await Promise.all(ids.map((id) => remove(id).catch(() => undefined)));
  return ids.length;
}

/** Docker's pull errors start with "(HTTP code 500) server error - "; the rest says what failed. */
function pullError(outcome: string | undefined): string {
  return (outcome ?? "no image after the pull").replace(/^\(HTTP code \d+\)[^-]*- /, "").trim();
}
