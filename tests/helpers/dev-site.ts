import { afterAll, beforeAll } from 'vitest';
import { describeProblems } from '../../src/dev/dev.ts';
import { build } from '../../src/pipeline/build.ts';
import { createIncrementalBuild, type IncrementalBuild } from '../../src/pipeline/incremental.ts';
import { copySite, type TempSite } from './project.ts';

/**
 * A copy of `fixture` with dev mode's incremental build over it, for the tests of one describe
 * block: made before them (`prepare` runs on the copy first) and disposed after. The problems a
 * full build and a dev rebuild report come as dev mode describes them, to compare the two.
 */
export function devSite(fixture: string, prepare: (site: TempSite) => void | Promise<void> = () => {}) {
  const state = {
    site: undefined as unknown as TempSite,
    dev: undefined as unknown as IncrementalBuild,
    buildProblems: () =>
      build({ root: state.site.dir, outDir: 'dist', warn: () => {} }).then(() => [], describeProblems),
    devProblems: (...changed: string[]) =>
      state.dev.update(changed.map((file) => state.site.file(file))).then(() => [], describeProblems),
  };
  beforeAll(async () => {
    state.site = await copySite(fixture);
    await prepare(state.site);
    state.dev = await createIncrementalBuild({ root: state.site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    await state.dev.initial();
  }, 120_000);
  afterAll(async () => {
    await state.dev?.dispose();
    await state.site?.dispose();
  });
  return state;
}
