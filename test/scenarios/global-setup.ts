// One backend for the whole test run, chosen the way `npm run scenario` chooses it (auto),
// with the lab deployed once. Tests get the endpoint and the deployment through inject().
import type { TestProject } from "vitest/node";
import { openLab } from "../../harness/lab.js";
import { say } from "../../harness/say.js";
import type { ProvidedLab } from "./provided.js";

export default async function setup(project: TestProject) {
  const opened = await openLab(say);
  const provided: ProvidedLab = { backend: opened.lab.backend, deployment: opened.lab.deployment };
  project.provide("lab", provided);
  return async () => {
    await opened.close();
  };
}
