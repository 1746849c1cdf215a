import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Site API code imports the generator's server surface as `ssg/server` (tsconfig.json paths).
  resolve: { alias: { 'ssg/server': fileURLToPath(new URL('./src/server/index.ts', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests spawn builds and browsers; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
