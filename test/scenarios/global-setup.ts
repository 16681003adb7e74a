// One backend for the whole test run, chosen the way `npm run scenario` chooses it (auto),
// with the lab deployed three times (three resource prefixes) so the long guard-matrix and the
// browser test can run beside the other scenarios. Tests get the endpoint and the deployments through inject().
import type { TestProject } from "vitest/node";
import { deploy } from "../../harness/deploy.js";
import { openLab } from "../../harness/lab.js";
import { DEFAULT_PREFIX, labNames } from "../../harness/names.js";
import { say } from "../../harness/say.js";
import type { ProvidedLab } from "./provided.js";

export default async function setup(project: TestProject) {
  const opened = await openLab(say);
  const { conn, deployment, backend } = opened.lab;
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  const second = await deploy(conn, labNames(`${prefix}-b`), say);
  const third = await deploy(conn, labNames(`${prefix}-c`), say);
  const provided: ProvidedLab = { backend, lanes: [deployment, second, third] };
  project.provide("lab", provided);
  return async () => {
    await opened.close();
  };
}
