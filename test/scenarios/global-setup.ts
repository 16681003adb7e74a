// One backend for the whole test run, chosen the way `npm run scenario` chooses it (auto),
// with the lab deployed seven times (seven resource prefixes): lane 0 runs the article's
// scenarios and slow-holder, lane 4 the other failure scenarios, lanes 1 and 3 share the
// guard-matrix's phases, lane 2 the browser test, lane 5 the fuzzing, lane 6 the small load
// run, all at the same time. Tests get the endpoint and the deployments through inject().
import type { TestProject } from "vitest/node";
import { deploy } from "../../harness/aws/deploy.js";
import { DEFAULT_PREFIX, labNames } from "../../harness/aws/names.js";
import { testTimings } from "../../harness/aws/timings.js";
import { say } from "../../harness/common/say.js";
import { openLab } from "../../harness/scenario/open-lab.js";
import type { SharedLab } from "./provided.js";

export default async function setup(project: TestProject) {
  const opened = await openLab(say);
  const { conn, deployment, backend } = opened;
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  const more = [];
  for (const lane of ["b", "c", "d", "e", "f", "g"])
    more.push(await deploy(conn, labNames(`${prefix}-${lane}`), say, testTimings(backend)));
  const provided: SharedLab = { backend, lanes: [deployment, ...more] };
  project.provide("lab", provided);
  return async () => {
    await opened.close();
  };
}
