import { afterAll, describe, expect, test } from "vitest";
import { runScenario } from "../../harness/run.js";
import { findScenario } from "../../scenarios/index.js";
import { GUARDS } from "../../worker/config.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";

const lab = labOnLane(1);
afterAll(() => lab.conn.close());

describe(`guard-matrix on ${lab.backend.name} ${lab.backend.version}`, () => {
  test("every cell measured, every cell as the lab teaches", async () => {
    const scenario = findScenario("guard-matrix");
    if (!scenario) throw new Error("guard-matrix is missing from the catalogue");
    const result = await runScenario(scenario, lab);
    expect(result.matrix?.columns).toEqual([...GUARDS]);
    expect(result.matrix?.cells).toHaveLength(result.phases.length);
    expect(result.matrix?.rows.length).toBeGreaterThanOrEqual(6);
    expectEveryCheckHolds(result, scenario.phases.length);
  }, 600_000);
});
