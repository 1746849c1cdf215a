import type { Reporter, TestCase, TestModule } from 'vitest/node';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(7);

/** The `count` slowest of `items`, one line each: duration, then name. */
function slowest<T>(items: T[], duration: (item: T) => number, name: (item: T) => string, count = 10): string[] {
  return items
    .map((item) => ({ ms: duration(item), name: name(item) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ ms, name: label }) => `${seconds(ms)}  ${label}`);
}

/**
 * Ends the run with its ten slowest tests and ten slowest files (hooks and imports included), so
 * a slow newcomer shows at once, and then the one line CI reads: `N passed, N failed, N skipped`.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const tests: TestCase[] = [];
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        tests.push(test);
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') failedTests += 1;
        else counts.skipped += 1;
      }
      counts.failed += failedTests;
      // A file that failed to load, or whose beforeAll or afterAll hook threw (its tests then show
      // as skipped), failed without a failed test: count it, so it cannot pass silently.
      if (module.state() === 'failed' && failedTests === 0) counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    const lines = [
      '',
      'Slowest tests:',
      ...slowest(
        tests,
        (test) => test.diagnostic()?.duration ?? 0,
        (test) => `${test.module.relativeModuleId} › ${test.fullName}`,
      ),
      'Slowest files (their hooks and imports included):',
      ...slowest(
        [...testModules],
        (module) => {
          const diagnostic = module.diagnostic();
          return diagnostic.duration + diagnostic.collectDuration + diagnostic.setupDuration;
        },
        (module) => `${module.relativeModuleId}${module.project.name ? ` (${module.project.name})` : ''}`,
      ),
      '',
      `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
