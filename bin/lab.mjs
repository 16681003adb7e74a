#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
// It runs the command line from its bundle (bin/cli-bundle.mjs), built the first time.
import { labEntry } from "./cli-bundle.mjs";

let entry;
try {
  entry = await labEntry();
} catch (err) {
  // One line, as the lab's commands answer (exit 3: the lab could not run).
  process.stderr.write(`lab: ${err.message}\n`);
  process.exit(3);
}
await import(entry);
