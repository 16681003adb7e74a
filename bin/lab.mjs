#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
// `npx lab scenario <name> ...` hands the rest to the scenario runner (`npm run scenario`).
import { register } from "tsx/esm/api";

register();
const [command] = process.argv.slice(2);
if (command === "scenario") {
  process.argv.splice(2, 1);
  await import("../harness/cli/scenario-cli.ts");
} else {
  await import("../harness/cli/lab-cli.ts");
}
