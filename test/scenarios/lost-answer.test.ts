// When the answer is lost: DynamoDB's (the SDK retries on its own) and the payment's. Each
// scenario's phases spread over this file's lanes.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { findScenario, LOST_ANSWER_SCENARIOS } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labsFor } from "./lab-for-tests.js";

const lanes = labsFor("answers");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});

describe(`when the answer is lost, on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const name of LOST_ANSWER_SCENARIOS) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lanes), scenario.phases.length);
    });
  }
});
