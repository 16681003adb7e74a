import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Scenario files mostly wait on the emulator; let them run side by side even on 2 cores.
    maxWorkers: 4,
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        // The CLI tests start tsx processes: seconds each when scenarios load the machine.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        test: {
          name: "scenarios",
          include: ["test/scenarios/**/*.test.ts"],
          // Starts (or finds) one emulator and deploys the lab once for the whole run.
          globalSetup: ["test/scenarios/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        // LocalStack in Docker (testcontainers, docker compose); skipped, with the reason, without Docker.
        test: { name: "docker", include: ["test/docker/**/*.test.ts"], hookTimeout: 900_000 },
      },
    ],
  },
});
