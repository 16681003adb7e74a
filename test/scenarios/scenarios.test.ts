// The article's four scenarios, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
// (The failure scenarios run in failures.test.ts and guard-matrix in its own file, on other
// lanes, at the same time.)
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { ARTICLE_SCENARIOS, findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labOnLane, labsFor } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.article[0]);
// slow-holder goes beyond the article, but runs here (not in failures.test.ts), after the
// article's scenarios: its phases on lane 0, free by then, and on lanes of their own.
const holderLanes = labsFor("holder");
afterAll(() => {
  for (const one of [lab, ...holderLanes]) one.conn.close();
});

const ON_THESE_LANES = [
  ...ARTICLE_SCENARIOS.map((name) => ({ name, lanes: [lab] })),
  { name: "slow-holder", lanes: holderLanes },
];

describe(`the article's scenarios (and slow-holder) on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const { name, lanes } of ON_THESE_LANES) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lanes), scenario.phases.length);
    });
  }
});
