// Every scenario in the catalogue, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
// (guard-matrix runs in its own file, on the second lane, at the same time.)
import { afterAll, describe, test } from "vitest";
import { runScenario } from "../../harness/run.js";
import { SCENARIOS } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";

const lab = labOnLane(0);
afterAll(() => lab.conn.close());

describe(`scenarios on ${lab.backend.name} ${lab.backend.version}`, () => {
  for (const scenario of SCENARIOS.filter((s) => s.name !== "guard-matrix")) {
    test(scenario.name, async () => {
      expectEveryCheckHolds(await runScenario(scenario, lab), scenario.phases.length);
    });
  }
});
