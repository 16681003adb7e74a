#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
// It runs the command line from its bundle (bin/cli-bundle.mjs), built the first time.
import module from "node:module";
import { COMPILE_CACHE, labEntry } from "./cli-bundle.mjs";

// V8's compiled code of the bundle and of the npm packages it imports, kept between commands
// (Node 22.1 and newer; older ones compile at each start, as before): `npx lab status` on an up
// lab 0.65 -> 0.56 s of CPU. Node checks each entry against its source and recompiles a stale one.
module.enableCompileCache?.(COMPILE_CACHE);

let entry;
try {
  entry = await labEntry();
} catch (err) {
  // One line, as the lab's commands answer (exit 3: the lab could not run).
  process.stderr.write(`lab: ${err.message}\n`);
  process.exit(3);
}
await import(entry);
