// The scenarios that go on after the article: each one's phases spread over three lanes, two
// scenarios at once where the file has six (MiniStack): batch-retry waits out SQS's retries (37 s)
// while the other four run one after another beside it (22 s); in turn they took 59 s.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { BEYOND_ARTICLE, findScenario } from "../../scenarios/index.js";
import {
  expectEveryCheckHolds,
  labsFor,
  laneGroups,
  QUEUED_TEST_TIMEOUT_MS,
} from "./lab-for-tests.js";

const lanes = labsFor("beyond");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});
const onFreeLanes = laneGroups(lanes, 3);

describe(`beyond the article on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const name of BEYOND_ARTICLE) {
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
