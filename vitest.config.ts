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
  'tests/editor-build.test.ts',
  'tests/build-failure-exit.test.ts',
  'tests/news-pages.test.ts',
  'tests/seo.test.ts',
  'tests/serve.test.ts',
  'tests/site-content.test.ts',
  'tests/site-data.test.ts',
];

/**
 * Files that mock modules (vi.mock) need a module registry of their own; every other file shares
 * one per worker (`isolate: false`), so such files run apart, isolated.
 */
const MOCKING = ['tests/build-unchanged-killed.test.ts'];

const cores = availableParallelism();

/** What both pools share. (Not `extends: true`: the root's global set-up must run once, not per pool.) */
const common = {
  // Site API code imports the generator's server surface as `ssg/server` (tsconfig.json paths).
  resolve: { alias: { 'ssg/server': fileURLToPath(new URL('./src/server/index.ts', import.meta.url)) } },
} satisfies TestProjectInlineConfiguration;

const testDefaults = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // expect.poll gives up after 1 s by default. Islands hydrate only after the page's first paint
  // (and `idle` ones when the browser is idle, or after 2 s); with the suite keeping both cores
  // busy, a "visible" island once took longer than 1 s (no-js.browser, the news dates, in a
  // clean-clone run), and a dev rebuild can too. 10 s is far beyond either, and costs nothing
  // when the condition holds sooner.
  expect: { poll: { timeout: 10_000 } },
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
          isolate: false,
          include: HEAVY,
          exclude: MOCKING,
          maxWorkers: cores,
          sequence: { groupOrder: 0 },
        },
      },
      {
        ...common,
        test: {
          ...testDefaults,
          name: 'light',
          // One module registry per worker, not per file (here and in the heavy pool): importing the
          // generator again for each file cost about 50 CPU seconds a run (measured: light 227 -> 196
          // CPU s, heavy 255 -> 235). The files restore what they change (TZ, listeners); checked
          // with shuffled files (sequence.shuffle in each project; the CLI flag drops groupOrder).
          isolate: false,
          include: ['tests/**/*.test.ts'],
          exclude: [...HEAVY, ...MOCKING],
          // Most of these wait on sockets, timers and child processes more than they compute: one
          // more file than cores keeps both cores busy through those waits.
          maxWorkers: cores + 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        ...common,
        test: {
          ...testDefaults,
          name: 'isolated',
          include: MOCKING,
          maxWorkers: 1,
          // Last, by itself (projects sharing a group must have the same number of workers).
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
