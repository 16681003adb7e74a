// The article's four scenarios, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
// (The failure scenarios run in failures.test.ts and guard-matrix in its own file, on other
// lanes, at the same time.)
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { ARTICLE_SCENARIOS, findScenario } from "../../scenarios/index.js";
import {
  expectEveryCheckHolds,
  labOnLane,
  labsFor,
  laneGroups,
  QUEUED_TEST_TIMEOUT_MS,
} from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.article[0]);
// slow-holder goes beyond the article, but runs here (not in failures.test.ts), on lanes of its
// own beside the article's four, which take lane 0 in turn: one after the other the file took 29 s.
const holderLanes = labsFor("holder");
afterAll(() => {
  for (const one of [lab, ...holderLanes]) one.conn.close();
});
const onArticleLane = laneGroups([lab], 1);

const ON_THESE_LANES = [
  ...ARTICLE_SCENARIOS.map((name) => ({ name, on: onArticleLane })),
  { name: "slow-holder", on: laneGroups(holderLanes, holderLanes.length) },
];

describe(`the article's scenarios (and slow-holder) on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const { name, on } of ON_THESE_LANES) {
    test.concurrent(
      name,
      async ({ expect }) => {
        const scenario = findScenario(name);
        if (!scenario) throw new Error(`${name} is missing from the catalogue`);
        const result = await on((lanes) => runScenario(scenario, lanes));
        expectEveryCheckHolds(result, scenario.phases.length, expect);
      },
      QUEUED_TEST_TIMEOUT_MS,
    );
  }
});
