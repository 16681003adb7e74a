// The failure modes beyond the article in its own setup (beyond.test.ts runs the rest). They
// mostly wait for SQS to redeliver, so they get lanes of their own beside the article's four.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { FAILURE_SCENARIOS, findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labsFor } from "./lab-for-tests.js";

const lanes = labsFor("failures");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});

describe(`failure scenarios on ${lab.backend.name} ${lab.backend.version}`, () => {
  // slow-holder runs on lane 0, after the article's scenarios (see scenarios.test.ts).
  for (const name of FAILURE_SCENARIOS.filter((n) => n !== "slow-holder")) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lanes), scenario.phases.length);
    });
  }
});
