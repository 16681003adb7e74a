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
        // Beside the scenarios, not before them: on their own they kept the run for 57 s while
        // no scenario ran. The scenarios' clocks (4/6 s on MiniStack) are to hold beside two busy
        // loops (issue 30), more load than the unit files' command-line processes make.
        test: {
          name: "unit",
          // A worker keeps the modules it loaded for the next file (no test file mocks a module
          // or changes process.env): 130.6 s against 124.2 and 124.7 s for the MiniStack run,
          // import time 17.7 s against 10.4 s (December 2026, this 2-core machine).
          isolate: false,
          include: ["test/unit/**/*.test.ts"],
          globalSetup: ["test/temp-root.ts"],
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The global setup is loaded through vitest's own module environment, which resolves
        // packages as a bundler does: the AWS SDK's ES builds ("module"), which Node cannot load
        // as they are, so vitest transformed and ran its 950 files itself, 6.3 s before the setup
        // began while no test could start. Resolved as Node resolves them (CommonJS), Node loads
        // them: the setup's modules in well under a second. Test files resolve this way already.
        environments: { __vitest__: { resolve: { conditions: ["node"], mainFields: ["main"] } } },
        test: {
          name: "scenarios",
          isolate: false, // as for the unit files
          include: ["test/scenarios/**/*.test.ts"],
          // Starts (or finds) one emulator and deploys the lab once for the whole run.
          globalSetup: ["test/temp-root.ts", "test/scenarios/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // LocalStack in Docker (testcontainers, docker compose); skipped, with the reason, without
        // Docker. After the scenarios, not beside them: in the scenarios' group (CI, December 2026)
        // a LocalStack scenario's retry never ended while testcontainers started a second one.
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
