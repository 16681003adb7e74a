// The workshop's commands as an attendee types them, for tests that keep a lab up: against the
// test run's emulator (LAB_ENDPOINT), on resources of their own (LAB_PREFIX), with state in a
// folder of their own (LAB_HOME), so each file's lab is apart from every other's.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { expect, inject } from "vitest";
import { npxLab } from "../node-tsx.js";
import "./provided.js";
import { tempFolder } from "../temp-folder.js";

export type LabEnv = NodeJS.ProcessEnv & { LAB_HOME: string; LAB_PREFIX: string };

export function workshopEnv(prefix: string): LabEnv {
  const { backend } = inject("lab");
  return {
    ...process.env,
    LAB_HOME: tempFolder(`${prefix}-`),
    LAB_BACKEND: "endpoint", // whatever the run itself was told to use
    LAB_ENDPOINT: backend.endpoint,
    LAB_PREFIX: prefix,
    NO_COLOR: "1",
  };
}

/** `npx lab <args>` in a child process, as an attendee types it. */
export function runCli(env: LabEnv, args: string[], timeoutMs = 120_000): SpawnSyncReturns<string> {
  return spawnSync(...npxLab(args), {
    encoding: "utf8",
    timeout: timeoutMs,
    env,
  });
}

/** `npx lab <args>` that must succeed; its stdout. */
export const labCommand =
  (env: LabEnv) =>
  (...args: string[]): string => {
    const result = runCli(env, args);
    expect(result.status, `lab ${args.join(" ")}:\n${result.stderr}`).toBe(0);
    return result.stdout;
  };
