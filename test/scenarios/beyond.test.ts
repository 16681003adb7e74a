// The scenarios that go on after the article: each one's phases spread over this file's lanes.
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { BEYOND_ARTICLE, findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labsFor } from "./lab-for-tests.js";

const lanes = labsFor("beyond");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});

describe(`beyond the article on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const name of BEYOND_ARTICLE) {
    test(name, async () => {
      const scenario = findScenario(name);
      if (!scenario) throw new Error(`${name} is missing from the catalogue`);
      expectEveryCheckHolds(await runScenario(scenario, lanes), scenario.phases.length);
    });
  }
});
