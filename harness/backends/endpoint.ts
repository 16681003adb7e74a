import { LabError } from "../common/errors.js";
import type { RunningBackend } from "./backend.js";
import { missingServices, probeHealth } from "./health.js";
import { assertSafeEndpoint } from "./this-machine.js";

export const DEFAULT_ENDPOINT = "http://localhost:4566";

/** An emulator the user already runs (docker compose up, a LocalStack desktop app, …). */
export async function useEndpoint(endpoint: string, reason: string): Promise<RunningBackend> {
  assertSafeEndpoint(endpoint);
  const health = await probeHealth(endpoint);
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
    version: `${health.product} ${health.version}`,
    endpoint,
    reason,
    stop: async () => {},
  };
}
