// A build stopped after it swapped its site in but before it kept the record of what it was made
// from (SIGKILL, a crash) must not leave the record of the build before it claiming that site.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

/** While set, the record is not kept: the build is as if killed right after its output went in. */
const killed = vi.hoisted(() => ({ now: false }));
vi.mock('../src/pipeline/unchanged.ts', async (original) => {
  const actual = await original<typeof import('../src/pipeline/unchanged.ts')>();
  return {
    ...actual,
    saveUnchangedRecord: (...args: Parameters<typeof actual.saveUnchangedRecord>) => {
      if (!killed.now) actual.saveUnchangedRecord(...args);
    },
  };
});

const { build } = await import('../src/pipeline/build.ts');
const SKIPPED = 'inputs unchanged';

describe('a build killed between its output and its record', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
  });
  afterAll(() => site.dispose());

  it('leaves no record of an earlier build that the next build could repeat', async () => {
    const run = (drafts: boolean) => build({ root: site.dir, outDir: 'dist', drafts, warn: () => {} });
    await run(false);
    expect((await run(false)).timings).toHaveProperty(SKIPPED);
    expect(await site.read('dist/index.html')).not.toContain('/news/draft-post');
    killed.now = true;
    await run(true);
    killed.now = false;
    expect(await site.read('dist/index.html')).toContain('/news/draft-post');
    // The same inputs and options as the first build: but the output is the drafts build's.
    const next = await run(false);
    expect(next.timings).not.toHaveProperty(SKIPPED);
    expect(await site.read('dist/index.html')).not.toContain('/news/draft-post');
  });
});
