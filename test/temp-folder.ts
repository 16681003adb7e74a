// A new folder for a test, inside the run's temp root (temp-root.ts), which is removed after
// the run: what `mkdtempSync(path.join(tmpdir(), prefix))` made, without the leftovers.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import type {} from "./temp-root.js"; // its ProvidedContext: tempRoot

export const tempFolder = (prefix: string): string =>
  mkdtempSync(path.join(inject("tempRoot"), prefix));
