// The failure modes beyond the article in its own setup (beyond.test.ts runs the rest). They
// mostly wait for SQS to redeliver, so they get lanes of their own beside the article's four.
import { afterAll, describe } from "vitest";
import type { DeployedLab } from "../../harness/aws/lab.js";
import { FAILURE_SCENARIOS } from "../../scenarios/index.js";
import { labsFor, laneGroups, scenarioTests } from "./lab-for-tests.js";

const lanes = labsFor("failures");
const lab = lanes[0] as DeployedLab;
afterAll(() => {
  for (const lane of lanes) lane.conn.close();
});

/**
 * A scenario spreads its phases over three lanes. Where the file has six (MiniStack), two
 * scenarios run at once, each on three: one after another they took 53 s, most of it waiting
 * for SQS's redeliveries, and the file ended the suite.
 */
const onFreeLanes = laneGroups(lanes, 3);

describe(`failure scenarios on ${lab.backend.name} ${lab.backend.version}`, () => {
  // slow-holder runs on lane 0, after the article's scenarios (see scenarios.test.ts).
  scenarioTests(
    FAILURE_SCENARIOS.filter((n) => n !== "slow-holder").map((name) => ({ name, on: onFreeLanes })),
  );
});
