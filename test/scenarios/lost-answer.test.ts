// When the answer is lost: DynamoDB's (the SDK retries on its own) and the payment's. Each
// scenario's phases spread over three lanes, both scenarios at once where the file has six
// (MiniStack); in turn they took 25 s, mostly waiting for SQS's retries.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { findScenario, LOST_ANSWER_SCENARIOS } from "../../scenarios/index.js";
import {
  expectEveryCheckHolds,
  labsFor,
  laneGroups,
  QUEUED_TEST_TIMEOUT_MS,
} from "./lab-for-tests.js";

const lanes = labsFor("answers");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});
const onFreeLanes = laneGroups(lanes, 3);

describe(`when the answer is lost, on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const name of LOST_ANSWER_SCENARIOS) {
    test.concurrent(
      name,
      async ({ expect }) => {
        const scenario = findScenario(name);
        if (!scenario) throw new Error(`${name} is missing from the catalogue`);
        const result = await onFreeLanes((group) => runScenario(scenario, group));
        expectEveryCheckHolds(result, scenario.phases.length, expect);
      },
      QUEUED_TEST_TIMEOUT_MS,
    );
  }
});
