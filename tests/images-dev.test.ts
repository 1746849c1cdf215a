import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsgError, SsgErrorList } from '../src/errors.ts';
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
    await sharp({ create: { width: 500, height: 250, channels: 3, background: '#284' } }).png().toFile(site.file(`${bundle}/chart.png`));
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
    await sharp({ create: { width: 500, height: 250, channels: 3, background: '#842' } }).png().toFile(site.file(`${bundle}/chart.png`));
    const result = await build.update([site.file(`${bundle}/chart.png`)]);
    expect(result.pages).toContain('/news/with-images');
    const after = chartUrl(page());
    expect(after).not.toBe(before);
    expect(existsSync(path.join(out(), after!))).toBe(true);
  });

  it('keeps the pictures when the text is edited (the Markdown HTML is rewritten once, not twice)', async () => {
    await site.write(`${bundle}/index.md`, '---\ntitle: Pictures\ndate: "2025-01-01"\n---\nNew text.\n\n![A chart](./chart.png)\n');
    await build.update([site.file(`${bundle}/index.md`)]);
    const html = page();
    expect(html).toContain('New text.');
    expect(html.match(/<picture>/g)).toHaveLength(1);
  });

  it('refuses an image from another origin as a build does, naming file and line', async () => {
    await site.write(`${bundle}/index.md`, '---\ntitle: Pictures\ndate: "2025-01-01"\n---\n![Remote](https://cdn.example.org/x.png)\n');
    const error = await build.update([site.file(`${bundle}/index.md`)]).catch((caught: unknown) => caught);
    const errors = error instanceof SsgErrorList ? error.errors : [error as SsgError];
    expect(errors.map((item) => [item.code, item.where])).toEqual([['ImageRemote', `${bundle}/index.md:5`]]);
  });
});
