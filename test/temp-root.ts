// One temp folder per test project and run, removed when the run ends: the folders tests make
// (LAB_HOMEs, guard files, wheels, venvs) go inside it, so a run leaves nothing in the system's
// temp folder, whichever test made them and whether or not it passed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(tmpdir(), `lab-tests-${project.name}-`));
  project.provide("tempRoot", root);
  return () => rmSync(root, { recursive: true, force: true });
}
