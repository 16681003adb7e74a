import { LabError } from "../common/errors.js";
import type { RunningBackend } from "./backend.js";
import { KNOWN_EMULATOR_MS, missingServices, probeHealth } from "./health.js";
import { assertSafeEndpoint, isLoopback } from "./this-machine.js";

export const DEFAULT_ENDPOINT = "http://localhost:4566";

/**
 * Two endpoints that reach the same emulator: same scheme and port, and the same host, where
 * every loopback name counts as one (`up` may have saved localhost, a run may pick 127.0.0.1).
 */
export function sameEndpoint(a: string, b: string): boolean {
  const place = (endpoint: string) => {
    const url = new URL(endpoint);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const host = isLoopback(url.hostname) ? "loopback" : url.hostname.toLowerCase();
    return `${url.protocol}//${host}:${port}`;
  };
  try {
    return place(a) === place(b);
  } catch {
    return a === b; // not URLs: only the very same text is the same place
  }
}

/** An emulator the user already runs (docker compose up, a LocalStack desktop app, …). */
export async function useEndpoint(endpoint: string, reason: string): Promise<RunningBackend> {
  assertSafeEndpoint(endpoint);
  const health = await probeHealth(endpoint, KNOWN_EMULATOR_MS);
  if (!health) {
    throw new LabError(
      `no emulator answers at ${endpoint}/_localstack/health; start one (docker compose up -d) or unset LAB_ENDPOINT`,
    );
  }
  const missing = missingServices(health);
  if (missing.length > 0) {
    throw new LabError(
      `the emulator at ${endpoint} does not run ${missing.join(", ")}; the lab needs them`,
    );
  }
  return {
    name: "endpoint",
    emulator: health.product,
    version: `${health.product} ${health.version}`,
    endpoint,
    reason,
    stop: async () => {},
  };
}
