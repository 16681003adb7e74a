// LocalStack started by testcontainers, end to end: the article's four scenarios, one failure
// scenario whose copies crash their execution environments, and a stop that leaves nothing
// behind (not even the Lambda containers LocalStack started through the Docker socket, which
// nothing else would remove without the reaper). The other failure scenarios run on LocalStack
// in the scenarios project, with the same image and settings (localstack-config.ts); here they
// took 140 s of a group that runs alone, and proved nothing the one crash does not.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningBackend } from "../../harness/backends/backend.js";
import { containersLabelled } from "../../harness/backends/docker.js";
import { RUN_LABEL, startTestcontainers } from "../../harness/backends/testcontainers.js";
import { say } from "../../harness/common/say.js";
import { ARTICLE_SCENARIOS } from "../../scenarios/index.js";
import {
  cannotRun,
  type DockerLab,
  deployLanes,
  docker,
  expectScenarioHolds,
  skipOrFail,
} from "./docker-for-tests.js";

/** A copy dies after its claim: its execution environment goes, and LocalStack starts another. */
const CRASHING = "crash-after-claim";

describe("LocalStack via testcontainers", () => {
  let lab: DockerLab | undefined;
  let stopped = false;

  beforeAll(async () => {
    if (cannotRun) return;
    const backend: RunningBackend = await startTestcontainers(say, "docker test project", docker);
    // Two lanes: the failure scenario's phases wait on SQS side by side.
    lab = await deployLanes(backend, 2);
  }, 900_000);

  afterAll(async () => {
    lab?.conn.close();
    if (!stopped) await lab?.backend.stop();
  }, 120_000);

  for (const name of ARTICLE_SCENARIOS) {
    test(name, async (context) => {
      if (cannotRun || !lab) return skipOrFail(context, cannotRun ?? "suite not set up");
      await expectScenarioHolds(lab, name, lab.lanes.slice(0, 1));
    }, 600_000);
  }

  test(CRASHING, async (context) => {
    if (cannotRun || !lab) return skipOrFail(context, cannotRun ?? "suite not set up");
    await expectScenarioHolds(lab, CRASHING);
  }, 600_000);

  test("stopping removes LocalStack and every Lambda container it started", async (context) => {
    if (cannotRun || !lab) return skipOrFail(context, cannotRun ?? "suite not set up");
    const label = lab.backend.containersLabel as string;
    expect(label.startsWith(`${RUN_LABEL}=`)).toBe(true);
    // LocalStack itself, and the Lambda containers it started to run the worker.
    expect((await containersLabelled(label)).length).toBeGreaterThan(1);
    stopped = true;
    await lab.backend.stop();
    expect(await containersLabelled(label)).toEqual([]);
  }, 120_000);
});
