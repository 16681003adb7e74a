// One backend for the whole test run, chosen the way `npx lab scenario` chooses it (auto), with
// the lab deployed on lane 0. Every other lane is deployed by the file that runs on it, as the
// file starts (lab-for-tests.ts): vitest starts no test file until every project's global setup
// has ended, and the unit files then use the core that deploying 42 lanes here left idle.
// Tests get the endpoint and lane 0's deployment through inject().
import type { TestProject } from "vitest/node";
import { mappingsOf } from "../../harness/aws/deploy.js";
import { DEFAULT_PREFIX } from "../../harness/aws/names.js";
import { stopDelivering } from "../../harness/aws/switches.js";
import { say } from "../../harness/common/say.js";
import { openLab } from "../../harness/scenario/open-lab.js";
import type { SharedLab } from "./provided.js";

export default async function setup(project: TestProject) {
  const opened = await openLab(say);
  const { conn, deployment, backend } = opened;
  // Lane 0's mappings deliver only while a test runs on it: an idle one polls all the same.
  await stopDelivering(conn, mappingsOf(deployment));
  const provided: SharedLab = {
    backend,
    article: deployment,
    lanePrefix: process.env.LAB_PREFIX || DEFAULT_PREFIX,
  };
  project.provide("lab", provided);
  return async () => {
    await opened.close();
  };
}
