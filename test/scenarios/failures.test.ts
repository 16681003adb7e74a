// Every other scenario but guard-matrix: the failure modes beyond the article. They mostly wait
// for SQS to redeliver, so they get a lane of their own (lane 4) beside the article's four.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { FAILURE_SCENARIOS, findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";

const lab = labOnLane(4);
afterAll(() => lab.conn.close());

describe(`failure scenarios on ${lab.backend.name} ${lab.backend.version}`, () => {
  // slow-holder runs on lane 0, after the article's scenarios (see scenarios.test.ts).
  for (const name of FAILURE_SCENARIOS.filter((n) => n !== "slow-holder")) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lab), scenario.phases.length);
    });
  }
});
