// A failed phase's evidence, as a scenario test prints it: in the Docker project too, whose tests
// have no shared lab to inject (CI once threw there instead of printing it).
import { describe, expect, test } from "vitest";
import { evidence } from "../scenarios/lab-for-tests.js";
import { phaseResult, scenarioResult } from "./fixtures.js";

describe("a failed phase's evidence", () => {
  test("is made from the result alone, with no shared lab injected", () => {
    const { backend } = scenarioResult();
    const text = evidence(phaseResult(), backend);
    expect(text).toContain("waited 4300 ms; not ended: none");
    expect(text).toContain("deliveries with no process_end");
  });
});
