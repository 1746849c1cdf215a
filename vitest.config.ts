import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests spawn builds and browsers; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
