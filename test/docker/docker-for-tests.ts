// What the Docker test files share: whether they can run here, and running scenarios on a
// LocalStack they started. Without a Docker engine every test skips with the reason; with
// LAB_REQUIRE_DOCKER=1 (CI, once it has brought an engine up) that reason fails the test instead,
// so a broken Docker path can never read as a quiet skip.
import type { TestContext } from "vitest";
import { type Connection, connect } from "../../harness/aws/connection.js";
import { type Deployment, deploy } from "../../harness/aws/deploy.js";
import { DEFAULT_PREFIX, labNames } from "../../harness/aws/names.js";
import { testTimings } from "../../harness/aws/timings.js";
import type { RunningBackend } from "../../harness/backends/backend.js";
import { dockerStatus } from "../../harness/backends/docker.js";
import { say } from "../../harness/common/say.js";
import { runScenario } from "../../harness/scenario/run.js";
import { findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds } from "../scenarios/lab-for-tests.js";

export const docker = await dockerStatus();

/** Why the Docker tests cannot run here (CI passes on why its setup failed), or undefined. */
export const cannotRun: string | undefined =
  process.env.LAB_DOCKER_SKIP_REASON ||
  (docker.available ? undefined : `no Docker backend here: ${docker.reason}`);

/** Skips the test with `reason`, or fails it when Docker is required. */
export function skipOrFail(context: TestContext, reason: string): void {
  if (process.env.LAB_REQUIRE_DOCKER === "1") throw new Error(`${reason} (LAB_REQUIRE_DOCKER=1)`);
  context.skip(reason);
}

export interface DockerLab {
  backend: RunningBackend;
  conn: Connection;
  lanes: Deployment[];
}

/**
 * Connects to a started backend and deploys the lab `lanes` times, under prefixes of their own:
 * the compose LocalStack may hold a workshop lab (`lab up`) under the default prefix, whose
 * tables a scenario would reset and whose mappings it would leave off.
 */
export async function deployLanes(backend: RunningBackend, lanes: number): Promise<DockerLab> {
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  const deployments: Deployment[] = [];
  for (let lane = 0; lane < lanes; lane++) {
    const prefix = `${DEFAULT_PREFIX}-docker-${lane}`;
    deployments.push(await deploy(conn, labNames(prefix), say, testTimings(backend)));
  }
  return { backend, conn, lanes: deployments };
}

/** Runs one scenario, its phases spread over these lanes, and expects every check to hold. */
export async function expectScenarioHolds(lab: DockerLab, name: string, lanes = lab.lanes) {
  const scenario = findScenario(name);
  if (!scenario) throw new Error(`${name} is missing from the catalogue`);
  const result = await runScenario(
    scenario,
    lanes.map((deployment) => ({ conn: lab.conn, deployment, backend: lab.backend })),
    say,
  );
  expectEveryCheckHolds(result, scenario.phases.length);
}
