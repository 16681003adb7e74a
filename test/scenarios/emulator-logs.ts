// For a failed phase on LocalStack: what the emulator itself printed meanwhile, so a delivery
// that never ended (CI has twice seen a retry go silent after its charge, then no redelivery)
// leaves more than the worker's own lines to read. Best effort: no Docker, no lines.
import { execFileSync } from "node:child_process";

const TAIL = 60;

/**
 * The container that publishes `port` on this machine (compose's 4566, or the random host port
 * testcontainers picks), read from `docker ps`'s Ports column: a match a test can check without
 * Docker.
 */
export function containerPublishing(psLines: string, port: string): string | undefined {
  const published = new RegExp(`:${port}->`);
  for (const line of psLines.split("\n")) {
    const [name, ports = ""] = line.split("\t");
    if (name && published.test(ports)) return name;
  }
  return undefined;
}

/** The last lines the container publishing the endpoint's port logged between two instants, or "". */
export function emulatorLogsBetween(endpoint: string, since: string, until: string): string {
  try {
    const port = new URL(endpoint).port || "80";
    const run = (file: string, args: string[]) =>
      execFileSync(file, args, { timeout: 10_000, encoding: "utf8", stdio: "pipe" });
    const container = containerPublishing(
      run("docker", ["ps", "--format", "{{.Names}}\t{{.Ports}}"]),
      port,
    );
    if (!container) return "";
    // docker logs writes the container's stderr to its own stderr: read both. Requests that
    // succeeded are left out: at this log level they are mostly the harness's own polling.
    const lines = run("sh", [
      "-c",
      'docker logs --since "$1" --until "$2" "$3" 2>&1 | grep -v "localstack.request.aws .* => 200" | tail -n "$4"',
      "logs",
      since,
      until,
      container,
      String(TAIL),
    ]);
    return `\n${container}'s last ${TAIL} lines from ${since} to ${until}, requests that succeeded left out:\n${lines}`;
  } catch {
    return "";
  }
}
