// A run of its own for summary-reporter.test.ts: one passing test, one skipped with a reason,
// and a suite whose beforeAll throws at once (as a Docker suite does when its pull is refused).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["*.fixture.ts"], reporters: ["../../summary-reporter.ts"] },
});
