// For a failed phase on LocalStack: what the emulator itself printed meanwhile, so a delivery
// that never ended (CI has twice seen a retry go silent after its charge, then no redelivery)
// leaves more than the worker's own lines to read. Best effort: no Docker, no lines.
import { execFileSync } from "node:child_process";

const TAIL = 60;

/** The last lines the container publishing the endpoint's port logged since `sinceIso`, or "". */
export function emulatorLogsSince(endpoint: string, sinceIso: string): string {
  try {
    const port = new URL(endpoint).port || "80";
    const docker = (args: string[]) =>
      execFileSync("docker", args, { timeout: 10_000, encoding: "utf8", stdio: "pipe" });
    const [container] = docker(["ps", "--filter", `publish=${port}`, "--format", "{{.Names}}"])
      .split("\n")
      .filter(Boolean);
    if (!container) return "";
    // docker logs writes the container's stderr to its own stderr: read both. Requests that
    // succeeded are left out: at this log level they are mostly the harness's own polling.
    const lines = execFileSync(
      "sh",
      [
        "-c",
        'docker logs --since "$1" "$2" 2>&1 | grep -v "localstack.request.aws .* => 200" | tail -n "$3"',
        "logs",
        sinceIso,
        container,
        String(TAIL),
      ],
      { timeout: 10_000, encoding: "utf8", stdio: "pipe" },
    );
    return `\n${container}'s last ${TAIL} lines since ${sinceIso}, requests that succeeded left out:\n${lines}`;
  } catch {
    return "";
  }
}
