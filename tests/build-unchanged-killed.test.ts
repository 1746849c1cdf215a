// A build stopped after it swapped its site in but before it kept the record of what it was made
// from (SIGKILL, a crash) must not leave the record of the build before it claiming that site; and
// a record kept after its caches were removed must not let the next build skip making them again.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

/**
 * `now`: the record is not kept, the build is as if killed right after its output went in.
 * `removeCaches`: called just before the record is kept, as a cleaner (or a user) removing files.
 */
const killed = vi.hoisted(() => ({ now: false, removeCaches: undefined as (() => void) | undefined }));
vi.mock('../src/pipeline/unchanged.ts', async (original) => {
  const actual = await original<typeof import('../src/pipeline/unchanged.ts')>();
  return {
    ...actual,
    saveUnchangedRecord: (...args: Parameters<typeof actual.saveUnchangedRecord>) => {
      killed.removeCaches?.();
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

  it('caches removed after the build wrote them, before its record: the next build writes them again', async () => {
    const fresh = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    try {
      const caches = ['.cache/ssg/markdown.json', '.cache/ssg/pages.bin'].map((file) => fresh.file(file));
      const run = () => build({ root: fresh.dir, outDir: 'dist', warn: () => {} });
      // None was there when the build started; each is written by it, then removed.
      killed.removeCaches = () => caches.forEach((file) => rmSync(file, { force: true }));
      await run();
      killed.removeCaches = undefined;
      expect(caches.filter((file) => existsSync(file))).toEqual([]);
      const next = await run();
      expect(next.timings).not.toHaveProperty(SKIPPED);
      expect(caches.filter((file) => !existsSync(file))).toEqual([]);
      expect((await run()).timings).toHaveProperty(SKIPPED);
    } finally {
      killed.removeCaches = undefined;
      await fresh.dispose();
    }
  });
});
