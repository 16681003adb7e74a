#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
// It runs the command line from its bundle (bin/cli-bundle.mjs), built the first time.
import { labEntry } from "./cli-bundle.mjs";

await import(await labEntry());
