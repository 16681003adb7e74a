// LocalStack started by the project's own docker-compose.yml, as the README tells a user to.
// When that LocalStack is already up (the README's path: `docker compose up -d`, then `npm test`)
// this suite uses it and leaves it running; otherwise it brings it up and takes it down again.
// One scenario, guard-on (ten copies through the mapping, the claims table, the logs): the
// article's four on LocalStack run in testcontainers.test.ts, and on this very LocalStack in the
// scenarios project whenever it is up; running them here again took 25 s and proved no more.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, test } from "vitest";
import { DEFAULT_ENDPOINT, useEndpoint } from "../../harness/backends/endpoint.js";
import { probeHealth } from "../../harness/backends/health.js";
import { isPortFree } from "../../harness/backends/processes.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import {
  cannotRun,
  type DockerLab,
  deployLanes,
  expectScenarioHolds,
  skipOrFail,
} from "./docker-for-tests.js";

function compose(...args: string[]): string {
  const result = spawnSync("docker", ["compose", ...args], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    timeout: 600_000,
  });
  if (result.error) throw new Error(`docker compose ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`docker compose ${args.join(" ")} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/** Why this suite cannot use port 4566 for the project's compose LocalStack, if it cannot. */
async function portProblem(ours: boolean): Promise<string | undefined> {
  if (ours) return undefined;
  const health = await probeHealth(DEFAULT_ENDPOINT);
  if (health) {
    return `port 4566 is held by ${health.product} ${health.version}, not this project's compose LocalStack: stop it to run this suite`;
  }
  if (!(await isPortFree(4566))) return "port 4566 is in use by something that is not an emulator";
  return undefined;
}

describe("LocalStack via docker compose", () => {
  let lab: DockerLab | undefined;
  let startedHere = false;
  let problem = cannotRun;

  beforeAll(async () => {
    if (problem) return;
    const version = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
    if (version.status !== 0) {
      problem = "the docker compose plugin is not installed";
      return;
    }
    const ours = compose("ps", "--status", "running", "--services")
      .split("\n")
      .includes("localstack");
    problem = await portProblem(ours);
    if (problem) return;
    startedHere = !ours;
    compose("up", "-d", "--wait", "localstack"); // a no-op when it is up already
    const backend = await useEndpoint(
      "http://127.0.0.1:4566",
      startedHere
        ? "docker compose up, by this suite"
        : "the project's docker compose LocalStack, already up",
    );
    lab = await deployLanes(backend, 1);
  }, 900_000);

  afterAll(() => {
    lab?.conn.close();
    if (startedHere) compose("down");
  }, 120_000);

  test("guard-on", async (context) => {
    if (problem || !lab) return skipOrFail(context, problem ?? "suite not set up");
    await expectScenarioHolds(lab, "guard-on");
  }, 600_000);
});
