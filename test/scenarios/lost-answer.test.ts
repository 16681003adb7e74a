// When the answer is lost: DynamoDB's (the SDK retries on its own) and the payment's. Each
// scenario's phases spread over three lanes, both scenarios at once where the file has six
// (MiniStack); in turn they took 25 s, mostly waiting for SQS's retries.
import { afterAll, describe } from "vitest";
import { LOST_ANSWER_SCENARIOS } from "../../scenarios/index.js";
import { labsFor, laneGroups, scenarioTests } from "./lab-for-tests.js";

const lanes = labsFor("answers");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});
const onFreeLanes = laneGroups(lanes, 3);

describe(`when the answer is lost, on ${lab.backend.name} ${lab.backend.version}`, () => {
  scenarioTests(LOST_ANSWER_SCENARIOS.map((name) => ({ name, on: onFreeLanes })));
});
