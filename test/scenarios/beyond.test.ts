// The scenarios that go on after the article: each one's phases spread over three lanes, two
// scenarios at once where the file has six (MiniStack): batch-retry waits out SQS's retries (37 s)
// while the other four run one after another beside it (22 s); in turn they took 59 s.
import { afterAll, describe } from "vitest";
import { BEYOND_ARTICLE } from "../../scenarios/index.js";
import { labsFor, laneGroups, scenarioTests } from "./lab-for-tests.js";

const lanes = labsFor("beyond");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});
const onFreeLanes = laneGroups(lanes, 3);

describe(`beyond the article on ${lab.backend.name} ${lab.backend.version}`, () => {
  scenarioTests(BEYOND_ARTICLE.map((name) => ({ name, on: onFreeLanes })));
});
