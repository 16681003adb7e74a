// A run whose global setup throws (as the scenarios' does when no emulator can start): nothing
// runs, and the closing line must say failed, not "0 failed".
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["*.fixture.ts"],
    globalSetup: ["./setup-that-throws.ts"],
    reporters: ["../../summary-reporter.ts"],
  },
});
