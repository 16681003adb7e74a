// The article's four scenarios, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
// (The failure scenarios run in failures.test.ts and guard-matrix in its own file, on other
// lanes, at the same time.)
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { ARTICLE_SCENARIOS, findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.article[0]);
afterAll(() => lab.conn.close());

// slow-holder goes beyond the article, but runs here (not in failures.test.ts): this lane
// would finish first otherwise.
const ON_LANE_ZERO = [...ARTICLE_SCENARIOS, "slow-holder"];

describe(`the article's scenarios (and slow-holder) on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const name of ON_LANE_ZERO) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lab), scenario.phases.length);
    });
  }
});
