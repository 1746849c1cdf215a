// Article images and the Markdown cache, tried as a careless user or an outsider would: an image
// replaced by one of the same size and time, a project copied, two files with one content, names
// written with accents, a corrupt image, a link out of the project. A warm build always ends as a
// cold one would; a problem names the article and its line, quoting what the author wrote.
import { cpSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { copySite, repoRoot, TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const png = (background: string) =>
  sharp({ create: { width: 60, height: 40, channels: 3, background } })
    .png()
    .toBuffer();
const article = (title: string, body: string) => `---\ntitle: ${title}\ndate: "2024-03-01"\n---\n${body}\n`;
/** The URLs of the article images a page shows. */
const imageUrls = (html: string) =>
  [...html.matchAll(/\/assets\/[a-z0-9-]+-\d+w-[0-9a-f]+\.\w+/g)].map((match) => match[0]).sort();

let sites: TempSite[] = [];
afterEach(async () => {
  await Promise.all(sites.map((site) => site.dispose()));
  sites = [];
});
async function newSite(): Promise<TempSite> {
  const site = await copySite(fixture);
  sites.push(site);
  return site;
}
/** What a build from an empty cache shows on the page. */
async function coldUrls(site: TempSite, page: string): Promise<string[]> {
  rmSync(site.file('.cache'), { recursive: true, force: true });
  const result = await site.run(['build']);
  expect(result.code, result.stderr).toBe(0);
  return imageUrls(await site.read(page));
}

describe('article images and the Markdown cache', () => {
  it('an image replaced by another of the same size and time is shown new, as a cold build shows it', async () => {
    const site = await newSite();
    const [red, blue] = [await png('#f00'), await png('#00f')];
    expect(red.length).toBe(blue.length);
    await site.write('content/news/pic/chart.png', red);
    await site.write('content/news/pic.md', article('Pic', '![A chart](./pic/chart.png)'));
    const time = new Date('2024-05-05T12:00:00Z');
    utimesSync(site.file('content/news/pic/chart.png'), time, time);
    expect((await site.run(['build'])).code).toBe(0);
    const before = imageUrls(await site.read('dist/news/pic.html'));
    writeFileSync(site.file('content/news/pic/chart.png'), blue);
    utimesSync(site.file('content/news/pic/chart.png'), time, time);
    const warm = await site.run(['build']);
    expect(warm.code, warm.stderr).toBe(0);
    const after = imageUrls(await site.read('dist/news/pic.html'));
    expect(after).not.toEqual(before);
    expect(after).toEqual(await coldUrls(site, 'dist/news/pic.html'));
  }, 60_000);

  it('a copy of the project checks its own image files, not the original ones', async () => {
    const site = await newSite();
    await site.write('content/news/pic/chart.png', await png('#f00'));
    await site.write('content/news/pic.md', article('Pic', '![A chart](./pic/chart.png)'));
    expect((await site.run(['build'])).code).toBe(0);
    const copy = new TempSite(await mkdtemp(path.join(os.tmpdir(), 'ssg-copy-')));
    sites.push(copy);
    cpSync(site.dir, copy.dir, { recursive: true, preserveTimestamps: true });
    const before = imageUrls(await copy.read('dist/news/pic.html'));
    await copy.write('content/news/pic/chart.png', await png('#0f0'));
    expect((await copy.run(['build'])).code).toBe(0);
    const after = imageUrls(await copy.read('dist/news/pic.html'));
    expect(after).not.toEqual(before);
    expect(after).toEqual(await coldUrls(copy, 'dist/news/pic.html'));
    // The record names files from the project root.
    expect(readFileSync(copy.file('.cache/ssg/markdown.json'), 'utf8')).not.toContain(site.dir);
  }, 60_000);

  it('two files with the same bytes are each shown under their own name', async () => {
    const site = await newSite();
    const bytes = await png('#0a0');
    await site.write('content/news/pic/alpha.png', bytes);
    await site.write('content/news/one.md', article('One', '![Alpha](./pic/alpha.png)'));
    expect((await site.run(['build'])).code).toBe(0);
    await site.write('content/news/pic/beta.png', bytes);
    await site.write('content/news/two.md', article('Two', '![Beta](./pic/beta.png)'));
    expect((await site.run(['build'])).code).toBe(0);
    const warm = imageUrls(await site.read('dist/news/two.html'));
    expect(warm.every((url) => url.startsWith('/assets/beta-'))).toBe(true);
    expect(warm).toEqual(await coldUrls(site, 'dist/news/two.html'));
  }, 60_000);

  it('quotes image URLs as the author wrote them, and names the article and line of an image that cannot be read', async () => {
    const site = await newSite();
    await site.write('content/news/pic/broken.png', 'not a png at all');
    await site.write('content/news/bad.md', article('Bad', 'Text.\n\n![Café](./café.png)\n\n![Percent](%)\n'));
    const missing = await site.run(['build']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('content/news/bad.md:7: The image "./café.png" does not exist');
    expect(missing.stderr).not.toContain('caf%C3%A9');
    expect(missing.stderr).toContain('content/news/bad.md:9: The image path "%" is not a valid URL path');
    // Shown by two articles: each names itself and its line, and the file.
    await site.write('content/news/bad.md', article('Bad', 'Text.\n\n![Broken](./pic/broken.png)\n'));
    await site.write('content/news/also-bad.md', article('Also bad', '![Broken](./pic/broken.png)\n'));
    const broken = await site.run(['build']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('content/news/bad.md:7: content/news/pic/broken.png: The image cannot be read');
    expect(broken.stderr).toContain(
      'content/news/also-bad.md:5: content/news/pic/broken.png: The image cannot be read',
    );
  }, 60_000);

  it('refuses an image that is a link to a file outside the project', async () => {
    const site = await newSite();
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ssg-outside-'));
    try {
      writeFileSync(
        path.join(outside, 'secret.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"><text>secret</text></svg>',
      );
      await site.write('content/news/leak.md', article('Leak', '![Leak](./leak.svg)'));
      symlinkSync(path.join(outside, 'secret.svg'), site.file('content/news/leak.svg'));
      const result = await site.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('ImageMissing');
      expect(result.stderr).toContain('content/news/leak.md:5');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);
});
