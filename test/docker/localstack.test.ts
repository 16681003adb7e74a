// The Docker paths end to end: LocalStack started by testcontainers, and LocalStack started by
// `docker compose up`, each running the article's four scenarios. Where no Docker engine is
// reachable every test here is skipped, with the reason, and the run's summary says so.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningBackend } from "../../harness/backends/backend.js";
import { dockerStatus } from "../../harness/backends/docker.js";
import { useEndpoint } from "../../harness/backends/endpoint.js";
import { isPortFree } from "../../harness/backends/processes.js";
import { startTestcontainers } from "../../harness/backends/testcontainers.js";
import { type Connection, connect } from "../../harness/connection.js";
import { deploy } from "../../harness/deploy.js";
import { labNames } from "../../harness/names.js";
import { PROJECT_ROOT } from "../../harness/paths.js";
import { runScenario } from "../../harness/run.js";
import { say } from "../../harness/say.js";
import { ARTICLE_SCENARIOS, findScenario } from "../../scenarios/index.js";

const docker = await dockerStatus();
const skipReason = docker.available ? undefined : `Docker backends skipped: ${docker.reason}`;

/** Runs the article's scenarios against whichever LocalStack `start` brings up. */
function scenarioSuite(title: string, start: () => Promise<RunningBackend>) {
  describe(title, () => {
    let backend: RunningBackend | undefined;
    let conn: Connection | undefined;
    let deployment: Awaited<ReturnType<typeof deploy>> | undefined;

    beforeAll(async () => {
      if (skipReason) return;
      backend = await start();
      conn = connect(backend.endpoint);
      deployment = await deploy(conn, labNames(), say);
    }, 900_000);

    afterAll(async () => {
      conn?.close();
      await backend?.stop();
    }, 120_000);

    for (const name of ARTICLE_SCENARIOS) {
      test(name, async (context) => {
        if (skipReason) return context.skip(skipReason);
        const scenario = findScenario(name);
        if (!scenario || !conn || !deployment || !backend) throw new Error("suite not set up");
        const result = await runScenario(scenario, { conn, deployment, backend }, say);
        const failed = result.phases.flatMap((p) =>
          p.checks.filter((c) => !c.pass).map((c) => `${p.name} › ${c.name}`),
        );
        expect(failed).toEqual([]);
      }, 600_000);
    }
  });
}

scenarioSuite("LocalStack via testcontainers", () =>
  startTestcontainers(say, "docker suite", docker),
);

scenarioSuite("LocalStack via docker compose", async () => {
  if (!(await isPortFree(4566))) {
    throw new Error(
      "port 4566 is in use: stop the emulator there (docker compose down) to run this suite",
    );
  }
  const compose = (...args: string[]) => {
    const result = spawnSync("docker", ["compose", ...args], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 900_000,
    });
    if (result.status !== 0)
      throw new Error(`docker compose ${args.join(" ")} failed: ${result.stderr.trim()}`);
  };
  compose("up", "-d", "--wait", "localstack");
  const backend = await useEndpoint("http://127.0.0.1:4566", "docker compose up");
  return { ...backend, stop: async () => compose("down") };
});
