#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
// It runs the command line from its bundle (bin/cli-bundle.mjs), built the first time.
import module from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { labEntry } from "./cli-bundle.mjs";

let entry;
try {
  entry = await labEntry();
} catch (err) {
  // One line, as the lab's commands answer (exit 3: the lab could not run).
  process.stderr.write(`lab: ${err.message}\n`);
  process.exit(3);
}
// V8's compiled code of the bundle and of the npm packages it imports, kept between commands in
// the bundle's own folder (removed with it). Node checks each entry against its source; the
// processes a command starts (MiniStack's functions) do not inherit it. Node 22.0 has none.
module.enableCompileCache?.(path.join(path.dirname(fileURLToPath(entry)), "compile-cache"));
await import(entry);
