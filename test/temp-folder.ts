// A new folder for a test, inside the run's temp root (temp-root.ts), which is removed after
// the run: what `mkdtempSync(path.join(tmpdir(), prefix))` made, without the leftovers.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import "./temp-root.js";

export const tempFolder = (prefix: string): string =>
  mkdtempSync(path.join(inject("tempRoot"), prefix));
