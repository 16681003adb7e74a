// One plain closing line, "N passed, N failed, N skipped", that CI and people can read alike,
// preceded by why tests were skipped and which suites could not even start. A skip is never a
// pass, and a test that never ran because its suite's setup failed is a failure, not a skip.
import type { SerializedError } from "vitest";
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSuite } from "vitest/node";

type Broken = { entity: TestModule | TestSuite; errors: ReadonlyArray<SerializedError> };

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    const skipped = new Map<string, string[]>();
    const broken = new Map<TestModule | TestSuite, Broken & { notRun: string[] }>();
    for (const module of testModules) {
      for (const { entity, errors } of brokenParts(module))
        broken.set(entity, { entity, errors, notRun: [] });
      // A module that failed before it declared any test still counts once.
      if (module.errors().length > 0 && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const result = test.result();
        const setup = brokenAncestor(test, broken);
        if (result.state === "passed") passed++;
        else if (result.state === "failed") failed++;
        else if (setup) {
          failed++;
          setup.notRun.push(test.name);
        } else {
          const note = (result.state === "skipped" && result.note) || "skipped without a reason";
          skipped.set(note, [...(skipped.get(note) ?? []), test.fullName]);
        }
      }
    }
    const out: string[] = [""];
    for (const { entity, errors, notRun } of broken.values()) {
      const name = entity.type === "module" ? entity.relativeModuleId : entity.fullName;
      out.push(`FAILED setup of ${name}: ${errors.map((e) => e.message).join("; ")}`);
      if (notRun.length > 0)
        out.push(`  so ${notRun.length} test(s) did not run: ${notRun.join(", ")}`);
    }
    for (const error of unhandledErrors) out.push(`FAILED outside any test: ${error.message}`);
    if (reason === "failed" && failed === 0) {
      // A global setup that threw (no emulator could start): no module ran, no error reached us.
      failed = 1;
      out.push("FAILED before any test ran (a global setup, most likely): vitest prints why below");
    }
    for (const [note, tests] of skipped) {
      out.push(`SKIPPED ${tests.length} test(s): ${note}`);
      for (const name of tests) out.push(`  - ${name}`);
    }
    const skippedCount = [...skipped.values()].reduce((n, tests) => n + tests.length, 0);
    out.push(`${passed} passed, ${failed} failed, ${skippedCount} skipped`);
    process.stdout.write(`${out.join("\n")}\n`);
  }
}

/** The module and suites whose own code (collection, beforeAll, afterAll) threw. */
function* brokenParts(module: TestModule): Generator<Broken> {
  if (module.errors().length > 0) yield { entity: module, errors: module.errors() };
  for (const suite of module.children.allSuites()) {
    if (suite.errors().length > 0) yield { entity: suite, errors: suite.errors() };
  }
}

function brokenAncestor<T>(test: TestCase, broken: Map<TestModule | TestSuite, T>): T | undefined {
  for (let parent: TestSuite | TestModule = test.parent; ; parent = parent.parent) {
    const found = broken.get(parent);
    if (found) return found;
    if (parent.type === "module") return undefined;
  }
}
