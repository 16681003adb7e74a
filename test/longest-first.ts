// The order test files start in: within each group, the longest first, so a run ends about when
// its longest file does. Vitest's own order uses the durations in its cache, and a fresh clone
// (CI) has none: it would start the largest files first, and the matrix, a small file that runs
// for two minutes, last.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest first, as each took in a fresh clone's whole MiniStack run on 2 cores (the unit and
 * scenario files side by side); any file not named runs after these.
 */
const LONGEST = [
  "scenarios/guard-matrix.test.ts",
  "scenarios/explore.test.ts",
  "scenarios/grade.test.ts",
  "scenarios/failures.test.ts",
  "scenarios/beyond.test.ts",
  "scenarios/workshop-guard-file.test.ts",
  "scenarios/workshop-apart.test.ts",
  "scenarios/lost-answer.test.ts",
  "scenarios/workshop-insights.test.ts",
  "scenarios/scenarios.test.ts",
  "scenarios/workshop.test.ts",
  "unit/ministack-venv.test.ts",
  "unit/doctor.test.ts",
  "scenarios/interrupt.test.ts",
  "unit/guard-file.test.ts",
  "scenarios/fuzz.test.ts",
  "unit/grade-cli.test.ts",
  // 6 s on MiniStack, 35-48 s on LocalStack: early, so that it does not end a LocalStack run.
  "scenarios/load.test.ts",
  "unit/python.test.ts",
  "scenarios/lease.test.ts",
  "scenarios/ministack-temp.test.ts",
  "scenarios/html-report.browser.test.ts",
  "unit/readiness.test.ts",
  "unit/doctor-deadline.test.ts",
  "unit/explore-order.test.ts",
  "unit/bundle.test.ts",
  "unit/cli-bundle.test.ts",
  "unit/summary-reporter.test.ts",
  "scenarios/boundary.test.ts",
  "unit/exit.test.ts",
  "unit/cli.test.ts",
  "unit/lab-cli.test.ts",
  "unit/insights-window.test.ts",
];

const rank = (file: TestSpecification) => {
  const at = LONGEST.findIndex((name) => file.moduleId.endsWith(`test/${name}`));
  return at === -1 ? LONGEST.length : at;
};
const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order first (groups, projects, its cache), then the known durations over it.
    const sorted = await super.sort(files);
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
