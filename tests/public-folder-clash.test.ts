// Entries of the public folder the build would write into, or over: named by `build` and by dev
// mode alike before anything is written, never reported as an output folder that is not writable.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblems } from '../src/dev/dev.ts';
import { build } from '../src/pipeline/build.ts';
import { devSite } from './helpers/dev-site.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

describe('a public folder at the path of a file the build makes', () => {
  const ctx = devSite(fixture);
  const { buildProblems, devProblems } = ctx;

  it('a site file (the sitemap): named by dev as by build, and dev recovers once it is gone', async () => {
    await ctx.site.write('site/public/sitemap.xml/a.txt', 'a');
    const problems = await devProblems('site/public/sitemap.xml/a.txt');
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'PublicFileClash',
        where: 'site/public/sitemap.xml/a.txt',
        message: 'The public file sitemap.xml/a.txt is inside sitemap.xml, which the build writes as a file.',
      }),
    ]);
    expect(await buildProblems()).toEqual(problems);
    expect(existsSync(ctx.site.file('dist'))).toBe(false);

    await ctx.site.remove('site/public/sitemap.xml');
    expect(await devProblems('site/public/sitemap.xml/a.txt')).toEqual([]);
    expect(readFileSync(path.join(ctx.dev.outDir, 'sitemap.xml'), 'utf8')).toContain('<urlset');
    expect(await buildProblems()).toEqual([]);
  });
});

describe('a symlink in the public folder', () => {
  const ctx = devSite(fixture, () => resetOutside());
  const outside = () => ctx.site.file('outside');
  // Each entry: how to make it, and the clash it is (undefined: none). The checks run in two
  // steps, pages and assets first: a clash there stops the build before the other files are
  // compared, as the sitemap folder would be.
  const entries: Record<string, { make: (file: string) => void; clash?: 'page' | 'site file' }> = {
    'about.html': { make: (file) => symlinkSync(path.join(outside(), 'file.txt'), file), clash: 'page' },
    news: { make: (file) => symlinkSync(path.join(outside(), 'folder'), file), clash: 'page' },
    'index.html': { make: (file) => symlinkSync(path.join(outside(), 'nowhere.html'), file), clash: 'page' },
    'sitemap.xml': { make: (file) => symlinkSync(path.join(outside(), 'folder'), file) }, // a public sitemap, through a link
    'robots.txt/x.txt': {
      make: (file) => (mkdirSync(path.dirname(file)), writeFileSync(file, 'x')),
      clash: 'site file',
    },
    'linked.txt': { make: (file) => symlinkSync(path.join(outside(), 'file.txt'), file) },
    shelf: { make: (file) => symlinkSync(path.join(outside(), 'folder'), file) },
    '.#about.md': { make: (file) => symlinkSync('user@host.1:2', file) }, // an editor's lock file
  };
  const resetOutside = () => {
    rmSync(outside(), { recursive: true, force: true });
    mkdirSync(path.join(outside(), 'folder'), { recursive: true });
    writeFileSync(path.join(outside(), 'file.txt'), 'outside');
    writeFileSync(path.join(outside(), 'folder', 'keep.txt'), 'kept');
  };
  const outsideUntouched = () => {
    expect(readdirSync(outside()).sort()).toEqual(['file.txt', 'folder']);
    expect(readFileSync(path.join(outside(), 'file.txt'), 'utf8')).toBe('outside');
    expect(readdirSync(path.join(outside(), 'folder'))).toEqual(['keep.txt']);
  };
  /** The public folder holding the fixture's robots.txt (unless replaced) and `chosen`. */
  const setPublic = (chosen: string[]) => {
    rmSync(ctx.site.file('site/public'), { recursive: true, force: true });
    mkdirSync(ctx.site.file('site/public'));
    if (!chosen.some((name) => name.startsWith('robots.txt')))
      writeFileSync(ctx.site.file('site/public/robots.txt'), 'User-agent: *\n');
    for (const name of chosen) entries[name]!.make(ctx.site.file(`site/public/${name}`));
  };
  const expected = (chosen: string[]) => {
    const pages = chosen.filter((name) => entries[name]!.clash === 'page');
    return (pages.length > 0 ? pages : chosen.filter((name) => entries[name]!.clash))
      .map((name) => `site/public/${name}`)
      .sort();
  };
  const named = (problems: ReturnType<typeof describeProblems>) => {
    for (const problem of problems) expect(problem.code, problem.message).toBe('PublicFileClash');
    return problems.map((problem) => problem.where).sort();
  };

  it('over a page, or where pages need a folder, is named by dev, and nothing is written where it leads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(Object.keys(entries)), async (chosen) => {
        setPublic(chosen);
        const problems = await ctx.dev
          .update(Object.keys(entries).map((name) => ctx.site.file(`site/public/${name}`)))
          .then(() => [], describeProblems);
        expect(named(problems)).toEqual(expected(chosen));
        outsideUntouched();
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('is named by build as by dev, and a build beside harmless ones writes nothing where they lead', async () => {
    const chosen = ['about.html', 'news', 'index.html', 'linked.txt', 'shelf', '.#about.md'];
    setPublic(chosen);
    const problems = await build({ root: ctx.site.dir, outDir: 'dist', warn: () => {} }).then(
      () => [],
      describeProblems,
    );
    expect(named(problems)).toEqual(expected(chosen));
    expect(existsSync(ctx.site.file('dist'))).toBe(false);
    outsideUntouched();

    setPublic(['sitemap.xml', 'linked.txt', 'shelf', '.#about.md']);
    expect(
      await build({ root: ctx.site.dir, outDir: 'dist', warn: () => {} }).then(() => [], describeProblems),
    ).toEqual([]);
    outsideUntouched();
    expect(readFileSync(ctx.site.file('dist/index.html'), 'utf8')).toContain('<html');
  }, 120_000);

  it('harmless ones are copied as they are, and a build with nothing new writes nothing', async () => {
    setPublic(['linked.txt', 'shelf', '.#about.md']);
    const once = () => build({ root: ctx.site.dir, outDir: 'dist', warn: () => {} });
    await once();
    expect(readFileSync(ctx.site.file('dist/linked.txt'), 'utf8')).toBe('outside');
    expect((await once()).unchanged).toBe(true); // the links themselves compared, not where they lead
    rmSync(ctx.site.file('site/public/linked.txt'));
    expect((await once()).unchanged).toBe(false);
    expect(existsSync(ctx.site.file('dist/linked.txt'))).toBe(false);
    outsideUntouched();
  }, 120_000);
});

describe('an empty public folder at the path of a file the build makes', () => {
  let site: TempSite;
  // Copied by the build as it is: a page cannot be written over it. Dev copies files only.
  const clashing: Record<string, string> = {
    'about.html': 'about.html',
    'news/first-post.html/sub': 'news/first-post.html',
  };
  const harmless = ['news/empty', 'assets', 'about.html.d', 'x'];

  beforeAll(async () => {
    site = await copySite(fixture);
  });
  afterAll(async () => {
    await site?.dispose();
  });

  it('is named by the build, which leaves the output as it was; one elsewhere, or with no public file, is fine', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray([...Object.keys(clashing), ...harmless]), fc.boolean(), async (chosen, withFile) => {
        rmSync(site.file('site/public'), { recursive: true, force: true });
        for (const name of ['', ...chosen]) mkdirSync(site.file(`site/public/${name}`), { recursive: true });
        if (withFile) writeFileSync(site.file('site/public/robots.txt'), 'User-agent: *\n');
        const before = existsSync(site.file('dist')) ? readdirSync(site.file('dist'), { recursive: true }).sort() : [];
        const problems = await build({ root: site.dir, outDir: 'dist', warn: () => {} }).then(
          () => [],
          describeProblems,
        );
        // Copied only with the public files (as the build copies the folder).
        const folders = withFile ? chosen.flatMap((name) => (name in clashing ? [clashing[name]!] : [])) : [];
        if (folders.length === 0) {
          expect(problems).toEqual([]);
          return;
        }
        // The first one written is named; nothing is swapped in.
        expect(problems).toHaveLength(1);
        const folder = folders.find((name) => problems[0]!.where === `site/public/${name}`);
        expect(problems[0]).toEqual(
          expect.objectContaining({
            code: 'PublicFileClash',
            message: `The public folder ${folder} is where the build writes a file.`,
          }),
        );
        expect(existsSync(site.file('dist')) ? readdirSync(site.file('dist'), { recursive: true }).sort() : []).toEqual(
          before,
        );
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
