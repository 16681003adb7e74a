// Which host names are this machine: loopback, or an address of one of its own network
// interfaces (the Docker bridge's 172.17.0.1, say). Anything else is another machine, and a
// lab that could `destroy` there must not go without the user's explicit opt-in.
import { networkInterfaces } from "node:os";
import { UsageError } from "../common/errors.js";

/** Every address this machine's interfaces have right now (IPv6 without brackets). */
export function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((info) => info.address),
  );
}

export function isLoopback(hostname: string): boolean {
  const host = unbracket(hostname);
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

export function isThisMachine(hostname: string, addresses = interfaceAddresses()): boolean {
  const host = unbracket(hostname);
  return isLoopback(host) || addresses.includes(host);
}

/** URL.hostname keeps IPv6 brackets ("[::1]"); interface lists do not. */
const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, "$1");

/** Refuses anything but an emulator on this machine, unless the user opts in by name. */
export function assertSafeEndpoint(
  endpoint: string,
  env: NodeJS.ProcessEnv = process.env,
  startedByLab = false,
): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UsageError(`"${endpoint}" is not a URL; use e.g. http://localhost:4566`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`endpoint ${endpoint} must start with http:// or https://`);
  }
  if (!startedByLab && !isThisMachine(url.hostname) && env.LAB_ALLOW_REMOTE_ENDPOINT !== "1") {
    throw new UsageError(
      `endpoint ${endpoint} is not on this machine; the lab only talks to a local emulator. ` +
        "Set LAB_ALLOW_REMOTE_ENDPOINT=1 if you really mean an emulator elsewhere.",
    );
  }
}
