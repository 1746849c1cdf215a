import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The heaviest files: a browser, nginx or wrangler each, or builds of the real site. They keep
 * every core busy by themselves, so they run in a pool of their own, one file per core.
 */
const HEAVY = [
  'tests/**/*.browser.test.ts',
  'tests/hosting-*.test.ts',
  'tests/dev-site.test.ts',
  'tests/news-pages.test.ts',
  'tests/seo.test.ts',
  'tests/serve.test.ts',
  'tests/site-content.test.ts',
  'tests/site-data.test.ts',
];

const cores = availableParallelism();

/** What both pools share. (Not `extends: true`: the root's global set-up must run once, not per pool.) */
const common = {
  // Site API code imports the generator's server surface as `ssg/server` (tsconfig.json paths).
  resolve: { alias: { 'ssg/server': fileURLToPath(new URL('./src/server/index.ts', import.meta.url)) } },
} satisfies TestProjectInlineConfiguration;

const testDefaults = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  ...common,
  test: {
    // Builds the real site once for the whole run and makes the CLI's compiled copy.
    globalSetup: ['tests/setup/real-site.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      {
        ...common,
        test: {
          ...testDefaults,
          name: 'heavy',
          include: HEAVY,
          maxWorkers: cores,
          sequence: { groupOrder: 0 },
        },
      },
      {
        ...common,
        test: {
          ...testDefaults,
          name: 'light',
          include: ['tests/**/*.test.ts'],
          exclude: HEAVY,
          // Most of these wait on sockets, timers and child processes more than they compute: one
          // more file than cores keeps both cores busy through those waits.
          maxWorkers: cores + 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
