// One backend for the whole test run, chosen the way `npx lab scenario` chooses it (auto),
// with the lab deployed once per lane (a resource prefix each; lanes.ts says which test file
// runs where), all at the same time. Tests get the endpoint and the deployments through inject().
import type { TestProject } from "vitest/node";
import { type Deployment, deploy, mappingsOf } from "../../harness/aws/deploy.js";
import { DEFAULT_PREFIX, labNames } from "../../harness/aws/names.js";
import { stopDelivering } from "../../harness/aws/switches.js";
import { testTimings } from "../../harness/aws/timings.js";
import { isLocalStack } from "../../harness/backends/emulators.js";
import { quiet, say } from "../../harness/common/say.js";
import { openLab } from "../../harness/scenario/open-lab.js";
import { LANE_COUNT, lanesUsed } from "./lanes.js";
import type { SharedLab } from "./provided.js";

/** Lane 1 is "-b", lane 25 "-z", then "-za", "-zb", …: the names earlier runs deployed stay. */
const laneSuffix = (i: number) =>
  i < 25 ? String.fromCharCode(98 + i) : `z${String.fromCharCode(97 + i - 25)}`;

export default async function setup(project: TestProject) {
  const opened = await openLab(say);
  const { conn, deployment, backend } = opened;
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  // The other lanes this backend's tests use deploy side by side: they share nothing but the emulator.
  const lanes: (Deployment | null)[] = Array.from({ length: LANE_COUNT }, () => null);
  lanes[0] = deployment;
  const more = lanesUsed(isLocalStack(backend)).filter((lane) => lane > 0);
  await Promise.all(
    more.map(async (lane) => {
      const names = labNames(`${prefix}-${laneSuffix(lane - 1)}`);
      lanes[lane] = await deploy(conn, names, quiet, testTimings(backend));
    }),
  );
  // Each lane's mappings deliver only while a test runs on it: idle ones poll all the same.
  const deployed = lanes.filter((lane): lane is Deployment => lane !== null);
  await Promise.all(deployed.map((lane) => stopDelivering(conn, mappingsOf(lane))));
  const provided: SharedLab = { backend, lanes };
  project.provide("lab", provided);
  return async () => {
    await opened.close();
  };
}
