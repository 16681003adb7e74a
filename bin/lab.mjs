#!/usr/bin/env node
// `npx lab <command>`: the same words in bash, PowerShell and cmd. npm's PowerShell shim has
// dropped the `--` of `npm run lab -- ...` in some npm versions, and npx needs none.
import { register } from "tsx/esm/api";

register();
await import("../harness/cli/lab-cli.ts");
