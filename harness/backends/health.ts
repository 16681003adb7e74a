// Both LocalStack and MiniStack answer GET /_localstack/health with JSON that names the version.
import { createRequire } from "node:module";
import { within } from "../common/deadline.js";

// node:http and node:https through require: fetch, or an ES import of node:http, loads undici
// (about 40 ms of CPU), and most commands ask the emulator's health as they start.
const requireHere = createRequire(import.meta.url);

export interface Health {
  product: "localstack" | "ministack" | "unknown";
  version: string;
  services: Record<string, string>;
}

/**
 * How long an emulator the lab was told about (LAB_ENDPOINT, the one `up` saved) may take to
 * answer: a busy one on a loaded 2-core machine took longer than the 1.5 s a probe that only
 * looks around waits, and was called dead while it ran a test suite. One that is gone refuses
 * at once, so this only lengthens the wait for one that hangs.
 */
export const KNOWN_EMULATOR_MS = 5_000;

/** The emulator's health, or undefined: refused, not an emulator, or no answer in `timeoutMs`. */
export function probeHealth(endpoint: string, timeoutMs = 1_500): Promise<Health | undefined> {
  return within(
    timeoutMs,
    (signal) => askHealth(endpoint, signal),
    () => undefined,
  );
}

async function askHealth(endpoint: string, signal: AbortSignal): Promise<Health | undefined> {
  try {
    const body = JSON.parse(await getText(new URL("/_localstack/health", endpoint), signal)) as {
      version?: string;
      edition?: string;
      services?: Record<string, string>;
    };
    // MiniStack calls its editions "light"/"full"; LocalStack says "community" or "pro".
    const product =
      body.edition === "light" || body.edition === "full"
        ? "ministack"
        : body.version
          ? "localstack"
          : "unknown";
    return { product, version: body.version ?? "unknown", services: body.services ?? {} };
  } catch {
    return undefined;
  }
}

/** The body of a 2xx answer to GET `url`; rejects on any other status, an error or the signal. */
function getText(url: URL, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const { get } = requireHere(
      url.protocol === "https:" ? "node:https" : "node:http",
    ) as typeof import("node:http");
    const request = get(url, { signal }, (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        reject(new Error(`HTTP ${status}`));
        return;
      }
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve(text));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

export const REQUIRED_SERVICES = ["sqs", "dynamodb", "lambda", "logs"] as const;

/** The services the lab needs that this emulator does not report as up. */
export function missingServices(health: Health): string[] {
  return REQUIRED_SERVICES.filter(
    (name) => !["available", "running"].includes(health.services[name] ?? ""),
  );
}
