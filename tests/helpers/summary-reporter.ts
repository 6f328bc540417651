import type { Reporter, TestCase, TestModule } from "vitest/node";

/**
 * Prints the plain closing line "N passed, N failed, N skipped" after the default
 * report, so tools that read a run's last line need no knowledge of Vitest's format.
 *
 * A test that was meant to run but never did because its file or suite failed around
 * it (a `beforeAll` that threw, say) counts as failed, not skipped: Vitest marks such
 * tests skipped, and the line read "0 failed" for a run that failed. A file that failed
 * before any test was collected counts as one failed test.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      let collected = 0;
      for (const test of testModule.children.allTests()) {
        collected++;
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed" || neverRanForAFailure(test)) counts.failed++;
        else counts.skipped++;
      }
      if (collected === 0 && testModule.errors().length > 0) counts.failed++;
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}

function neverRanForAFailure(test: TestCase): boolean {
  if (test.options.mode === "skip" || test.options.mode === "todo") return false;
  for (let parent: TestCase["parent"] | undefined = test.parent; parent; ) {
    if (parent.state() === "failed" || parent.errors().length > 0) return true;
    parent = parent.type === "module" ? undefined : parent.parent;
  }
  return false;
}
