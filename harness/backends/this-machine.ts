// Which host names are this machine: loopback, or an address of one of its own network
// interfaces (the Docker bridge's 172.17.0.1, say). Anything else is another machine, and a
// lab that could `destroy` there must not go without the user's explicit opt-in.
import { networkInterfaces } from "node:os";

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
