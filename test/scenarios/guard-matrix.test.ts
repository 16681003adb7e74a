import { afterAll, describe, expect, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { MATRIX_COLUMNS } from "../../scenarios/guard-matrix.js";
import { findScenario } from "../../scenarios/index.js";
import { expectEveryCheckHolds, labsFor } from "./lab-for-tests.js";

const lanes = labsFor("matrix");
const lab = lanes[0] as (typeof lanes)[number];
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});

describe(`guard-matrix on ${lab.backend.name} ${lab.backend.version}`, () => {
  test("every cell measured, every cell as the lab teaches", async () => {
    const scenario = findScenario("guard-matrix");
    if (!scenario) throw new Error("guard-matrix is missing from the catalogue");
    const result = await runScenario(scenario, lanes);
    expect(result.matrix?.columns).toEqual(MATRIX_COLUMNS);
    expect(result.matrix?.cells).toHaveLength(result.phases.length);
    expect(result.matrix?.rows.length).toBeGreaterThanOrEqual(6);
    expectEveryCheckHolds(result, scenario.phases.length);
  }, 600_000);
});
