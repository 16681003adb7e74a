// One plain closing line, "N passed, N failed, N skipped", that CI and people can read alike,
// preceded by why tests were skipped: a skip is never a pass, and should never be a surprise.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const skipped = new Map<string, string[]>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") passed++;
        else if (result.state === "failed") failed++;
        else {
          const note = (result.state === "skipped" && result.note) || "skipped without a reason";
          skipped.set(note, [...(skipped.get(note) ?? []), test.fullName]);
        }
      }
    }
    const out: string[] = [""];
    for (const [note, tests] of skipped) {
      out.push(`SKIPPED ${tests.length} test(s): ${note}`);
      for (const name of tests) out.push(`  - ${name}`);
    }
    const skippedCount = [...skipped.values()].reduce((n, tests) => n + tests.length, 0);
    out.push(`${passed} passed, ${failed} failed, ${skippedCount} skipped`);
    process.stdout.write(`${out.join("\n")}\n`);
  }
}
