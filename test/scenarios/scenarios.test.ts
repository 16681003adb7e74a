// The article's four scenarios, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
// (The failure scenarios run in failures.test.ts and guard-matrix in its own file, on other
// lanes, at the same time.)
import { afterAll, describe } from "vitest";
import { ARTICLE_SCENARIOS } from "../../scenarios/index.js";
import { labOnLane, labsFor, laneGroups, scenarioTests } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.article[0]);
// slow-holder goes beyond the article, but runs here (not in failures.test.ts), on lanes of its
// own beside the article's four, which take lane 0 in turn (one after the other, the file took
// 29 s on MiniStack); on LocalStack after them, on lane 0.
const holderLanes = labsFor("holder");
afterAll(() => {
  for (const one of [lab, ...holderLanes]) one.conn.close();
});
const onArticleLane = laneGroups([lab], 1);
/** On LocalStack slow-holder has the article's lane (lanes.ts): then it waits its turn there. */
const holderOnArticleLane = holderLanes.some(
  (lane) => lane.deployment.names.functionName === lab.deployment.names.functionName,
);
const onHolderLanes: typeof onArticleLane = holderOnArticleLane
  ? (work) => onArticleLane(() => work(holderLanes))
  : laneGroups(holderLanes, holderLanes.length);

const ON_THESE_LANES = [
  ...ARTICLE_SCENARIOS.map((name) => ({ name, on: onArticleLane })),
  { name: "slow-holder", on: onHolderLanes },
];

describe(`the article's scenarios (and slow-holder) on ${lab.backend.name} ${lab.backend.version}`, () => {
  scenarioTests(ON_THESE_LANES);
});
