import { defineConfig } from "vitest/config";
import LongestFirst from "./test/longest-first.js";

export default defineConfig({
  test: {
    // Scenario files mostly wait on the emulator; let them run side by side even on 2 cores.
    // Not six: with the grade file too, six at once starved the 2 s function clocks (guard-off
    // redelivered, ten failures in one run).
    maxWorkers: 4,
    reporters: ["default", "./test/summary-reporter.ts"],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // First, on their own: the CLI tests start many tsx processes, and on 2 cores that load
        // would slow the scenarios' invocations past the visibility timeout (SQS redelivers).
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "scenarios",
          include: ["test/scenarios/**/*.test.ts"],
          // Starts (or finds) one emulator and deploys the lab once for the whole run.
          globalSetup: ["test/scenarios/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // LocalStack in Docker (testcontainers, docker compose); skipped, with the reason, without
        // Docker. In the scenarios' group, started after all of them (longest-first.ts): the last
        // scenario files mostly wait for redeliveries, and so does a LocalStack starting. Run
        // after the group, they added 50-60 s to a LocalStack npm test at 20-30% CPU.
        test: {
          name: "docker",
          include: ["test/docker/**/*.test.ts"],
          hookTimeout: 900_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
