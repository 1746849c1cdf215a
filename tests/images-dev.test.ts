import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { ASSETS_DIR } from '../src/project.ts';
import { describeProblems } from '../src/dev/dev.ts';
import { imageKey } from '../src/images/image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS } from '../src/images/process.ts';
import { build as ssgBuild } from '../src/pipeline/build.ts';
import { createIncrementalBuild, type IncrementalBuild } from '../src/pipeline/incremental.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const bundle = 'content/news/with-images';

const chartUrl = (html: string) => /\/assets\/chart-\d+w-\w+\.png/.exec(html)?.[0];

describe('dev mode: article images', () => {
  let site: TempSite;
  let build: IncrementalBuild;
  const out = () => path.join(site.dir, '.cache/ssg/dev');
  const page = () => readFileSync(path.join(out(), 'news/with-images.html'), 'utf8');

  beforeAll(async () => {
    site = await copySite(fixture);
    await site.write(`${bundle}/index.md`, '---\ntitle: Pictures\ndate: "2025-01-01"\n---\n![A chart](./chart.png)\n');
    await sharp({ create: { width: 500, height: 250, channels: 3, background: '#284' } })
      .png()
      .toFile(site.file(`${bundle}/chart.png`));
    build = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    await build.initial();
  }, 120_000);
  afterAll(async () => {
    await build?.dispose();
    await site?.dispose();
  });

  it('shows the processed picture from the start, its files written', () => {
    const html = page();
    expect(html).toContain('<source type="image/avif"');
    expect(existsSync(path.join(out(), chartUrl(html)!))).toBe(true);
  });

  it('renders the article again when only its image changes', async () => {
    const before = chartUrl(page());
    await sharp({ create: { width: 500, height: 250, channels: 3, background: '#842' } })
      .png()
      .toFile(site.file(`${bundle}/chart.png`));
    const result = await build.update([site.file(`${bundle}/chart.png`)]);
    expect(result.pages).toContain('/news/with-images');
    const after = chartUrl(page());
    expect(after).not.toBe(before);
    expect(existsSync(path.join(out(), after!))).toBe(true);
  });

  it('keeps the pictures when the text is edited (the Markdown HTML is rewritten once, not twice)', async () => {
    await site.write(
      `${bundle}/index.md`,
      '---\ntitle: Pictures\ndate: "2025-01-01"\n---\nNew text.\n\n![A chart](./chart.png)\n',
    );
    await build.update([site.file(`${bundle}/index.md`)]);
    const html = page();
    expect(html).toContain('New text.');
    expect(html.match(/<picture>/g)).toHaveLength(1);
  });

  it('refuses an image from another origin as a build does, naming file and line', async () => {
    await site.write(
      `${bundle}/index.md`,
      '---\ntitle: Pictures\ndate: "2025-01-01"\n---\n![Remote](https://cdn.example.org/x.png)\n',
    );
    const error = await build.update([site.file(`${bundle}/index.md`)]).catch((caught: unknown) => caught);
    const errors = error instanceof SsgErrorList ? error.errors : [error as SsgError];
    expect(errors.map((item) => [item.code, item.where])).toEqual([['ImageRemote', `${bundle}/index.md:5`]]);
  });
});

describe('dev mode: images articles show from the public folder or beside them, and the image cache', () => {
  let site: TempSite;
  let build: IncrementalBuild;
  const out = () => path.join(site.dir, '.cache/ssg/dev');
  const cacheDir = () => path.join(site.dir, '.cache/ssg/images');
  const page = () => readFileSync(path.join(out(), 'news/public-picture.html'), 'utf8');
  const png = (background: string) =>
    sharp({ create: { width: 300, height: 200, channels: 3, background } })
      .png()
      .toBuffer();
  const entryOf = (bytes: Uint8Array, file: string) =>
    `${imageKey(bytes, DEFAULT_IMAGE_SETTINGS, ASSETS_DIR, file)}.bin`;
  const entries = () => new Set(readdirSync(cacheDir()));
  const logoUrl = (html: string) => /\/assets\/pic-\d+w-\w+\.png/.exec(html)?.[0];

  async function freshBuild(): Promise<{ out: string; error?: unknown }> {
    const outDir = path.join(site.dir, 'dist');
    return ssgBuild({ root: site.dir, outDir, warn: () => {} }).then(
      () => ({ out: outDir }),
      (error: unknown) => ({ out: outDir, error }),
    );
  }

  beforeAll(async () => {
    site = await copySite(fixture);
    await site.write(
      'content/news/public-picture.md',
      '---\ntitle: Public picture\ndate: "2025-01-01"\n---\n![A logo](/pic.png)\n',
    );
    await site.write('site/public/pic.png', await png('#284'));
    build = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    await build.initial();
  }, 120_000);
  afterAll(async () => {
    await build?.dispose();
    await site?.dispose();
  });

  it('processes the article again when the public image changes, and fails as build fails when it goes', async () => {
    const before = logoUrl(page());
    await site.write('site/public/pic.png', await png('#842'));
    const result = await build.update([site.file('site/public/pic.png')]);
    expect(result.pages).toContain('/news/public-picture');
    const after = logoUrl(page());
    expect(after).not.toBe(before);
    expect(existsSync(path.join(out(), after!))).toBe(true);
    expect(existsSync(path.join(out(), before!))).toBe(false);

    await site.remove('site/public/pic.png');
    const error = await build.update([site.file('site/public/pic.png')]).catch((caught: unknown) => caught);
    expect(describeProblems(error)).toEqual([
      expect.objectContaining({ code: 'ImageMissing', where: 'content/news/public-picture.md:5' }),
    ]);
    expect(describeProblems((await freshBuild()).error)).toEqual(describeProblems(error));
  });

  it('recovers when the image comes back, with the page a fresh build writes', async () => {
    await site.write('site/public/pic.png', await png('#428'));
    await build.update([site.file('site/public/pic.png')]);
    const fresh = await freshBuild();
    expect(fresh.error).toBeUndefined();
    expect(page()).toBe(readFileSync(path.join(fresh.out, 'news/public-picture.html'), 'utf8'));
  });

  it('processes a plain article again when an image beside it (not in a page bundle) changes', async () => {
    await site.write('content/news/img/photo.png', await png('#111'));
    await site.write(
      'content/news/beside.md',
      '---\ntitle: Beside\ndate: "2025-01-02"\n---\n![A photo](./img/photo.png)\n',
    );
    await build.update([site.file('content/news/img/photo.png'), site.file('content/news/beside.md')]);
    const before = readFileSync(path.join(out(), 'news/beside.html'), 'utf8');
    await site.write('content/news/img/photo.png', await png('#eee'));
    const result = await build.update([site.file('content/news/img/photo.png')]);
    expect(result.pages).toContain('/news/beside');
    expect(readFileSync(path.join(out(), 'news/beside.html'), 'utf8')).not.toBe(before);
  });

  it('prunes, when asked after a good rebuild, the cache entries no image shows any more, sparing those in use and newer ones', async () => {
    build.pruneCaches();
    const [picture, photo] = [
      entryOf(readFileSync(site.file('site/public/pic.png')), 'pic.png'),
      entryOf(readFileSync(site.file('content/news/img/photo.png')), 'photo.png'),
    ];
    expect([...entries()].sort()).toEqual([picture, photo].sort());

    const stale = `${'a'.repeat(64)}.bin`;
    writeFileSync(path.join(cacheDir(), stale), 'left by an earlier build');
    utimesSync(path.join(cacheDir(), stale), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const replaced = await png('#0f0');
    await site.write('site/public/pic.png', replaced);
    await build.update([site.file('site/public/pic.png')]);
    // Written by someone else (another build) after the rebuild started: not this session's to remove.
    const newer = `${'b'.repeat(64)}.bin`;
    writeFileSync(path.join(cacheDir(), newer), 'a concurrent build');
    utimesSync(path.join(cacheDir(), newer), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(entries()).toContain(picture); // nothing is pruned by the rebuild itself
    build.pruneCaches();
    expect([...entries()].sort()).toEqual([entryOf(replaced, 'pic.png'), photo, newer].sort());
  });
});

describe('dev mode: an article that comes due while it runs', () => {
  let site: TempSite;
  let build: IncrementalBuild;
  let now = new Date('2026-01-01T09:00:00Z');
  const out = (file: string) => path.join(site.dir, '.cache/ssg/dev', file);

  beforeAll(async () => {
    site = await copySite(fixture);
    // Dated an hour after dev starts: held back until then, its file never touched again.
    await site.write(
      'content/news/soon/index.md',
      '---\ntitle: Soon\ndate: "2026-01-01T10:00:00Z"\n---\nThe body of the post that comes due.\n\n![A chart](./chart.png)\n',
    );
    await sharp({ create: { width: 500, height: 250, channels: 3, background: '#248' } })
      .png()
      .toFile(site.file('content/news/soon/chart.png'));
    build = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {}, now: () => now });
    await build.initial();
  }, 120_000);
  afterAll(async () => {
    await build?.dispose();
    await site?.dispose();
  });

  it('is published whole at the first rebuild after its date, with its body and pictures, as `build` makes it', async () => {
    expect(existsSync(out('news/soon.html'))).toBe(false);
    now = new Date('2026-01-01T11:00:00Z');
    // Another article edited: the rebuild that publishes the post that came due.
    await site.write(
      'content/news/first-post.md',
      `${readFileSync(site.file('content/news/first-post.md'), 'utf8')}\nOne more line.\n`,
    );
    const result = await build.update([site.file('content/news/first-post.md')]);
    expect(result.pages).toContain('/news/soon');
    const html = readFileSync(out('news/soon.html'), 'utf8');
    expect(html).toContain('The body of the post that comes due.');
    const picture = chartUrl(html);
    expect(picture).toBeDefined();
    expect(existsSync(out(picture!))).toBe(true);
    // The same page as a build at that time makes.
    const built = await ssgBuild({ root: site.dir, outDir: 'dist', now, warn: () => {} });
    expect(built.pages.some((row) => row.route === '/news/soon')).toBe(true);
    expect(html.replace(/<script[^]*?<\/script>/g, '')).toBe(
      readFileSync(site.file('dist/news/soon.html'), 'utf8').replace(/<script[^]*?<\/script>/g, ''),
    );
  });
});
