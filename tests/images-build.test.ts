import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageCacheDir } from '../src/images/image-cache.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { snapshotTree, treeChanges } from './helpers/tree.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

/** A page bundle: the article and its images in one folder, as a staff member would add it. */
async function addBundle(site: TempSite): Promise<void> {
  await site.write(
    'content/news/with-images/index.md',
    [
      '---',
      'title: With images',
      'date: "2025-02-01"',
      '---',
      'Intro.',
      '',
      '![A wide chart](./chart.png)',
      '',
      '```js',
      'const answer = 42;',
      '```',
      '',
      '![A photo](photo.jpg)',
      '',
      '![""](./divider.png)',
      '',
    ].join('\n'),
  );
  await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#2a6' } })
    .png()
    .toFile(site.file('content/news/with-images/chart.png'));
  await sharp({ create: { width: 300, height: 200, channels: 3, background: '#a62' } })
    .jpeg()
    .toFile(site.file('content/news/with-images/photo.jpg'));
  await sharp({ create: { width: 200, height: 4, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.3 } } })
    .png()
    .toFile(site.file('content/news/with-images/divider.png'));
}

const cacheEntries = (site: TempSite) => {
  const dir = imageCacheDir(site.file('.cache/ssg'));
  return new Map(readdirSync(dir).map((name) => [name, statSync(path.join(dir, name)).mtimeMs]));
};

describe('a page bundle with images, built', () => {
  let site: TempSite;
  let html: string;

  beforeAll(async () => {
    site = await copySite(fixture);
    await addBundle(site);
    const result = await site.run(['build']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    html = await site.read('dist/news/with-images.html');
  }, 120_000);
  afterAll(() => site.dispose());

  it('is published at the folder name, next to the plain articles', async () => {
    expect(html).toContain('<h1>With images</h1>');
    expect(await site.read('dist/news/first-post.html')).toContain('First post');
  });

  it('shows each image as a <picture> with AVIF and WebP sources, srcset, size, lazy except the first', () => {
    const pictures = html.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(3);
    for (const picture of pictures) {
      expect(picture).toMatch(/<source type="image\/avif" srcset="[^"]+"/);
      expect(picture).toMatch(/<source type="image\/webp" srcset="[^"]+"/);
      expect(picture).toMatch(/<img src="\/assets\/[^"]+" srcset="[^"]+" sizes="[^"]+" width="\d+" height="\d+"/);
      expect(picture).toContain('decoding="async"');
    }
    expect(pictures[0]).toContain('width="1000" height="500"');
    expect(pictures[0]).toContain('alt="A wide chart"');
    expect(pictures[0]).not.toContain('loading=');
    expect(pictures[0]).toMatch(
      /chart-400w-\w+\.avif 400w, \/assets\/chart-800w-\w+\.avif 800w, \/assets\/chart-1000w-\w+\.avif 1000w/,
    );
    expect(pictures[1]).toContain('loading="lazy"');
    expect(pictures[1]).toContain('width="300" height="200"');
    // Never upscaled: the 300 px photo is offered at 300 px only, its fallback a JPEG.
    expect(pictures[1]).toMatch(/srcset="\/assets\/photo-300w-\w+\.jpg 300w"/);
    expect(pictures[2]).toContain('alt=""');
    expect(pictures[2]).toContain('loading="lazy"');
    // The code between the images is kept (and highlighted, as every fenced block naming its language).
    expect(html).toContain('<span class="hljs-keyword">const</span> answer = <span class="hljs-number">42</span>;');
  });

  it('writes every file the pictures name into assets/, and the images are what they say', async () => {
    const urls = [...html.matchAll(/\/assets\/[\w.-]+\.(?:avif|webp|png|jpg)/g)].map((match) => match[0]);
    expect(urls.length).toBeGreaterThanOrEqual(3 * 3);
    for (const url of new Set(urls)) {
      const bytes = readFileSync(site.file(`dist${url}`));
      const metadata = await sharp(bytes).metadata();
      expect(metadata.width, url).toBe(Number(/-(\d+)w-/.exec(url)![1]));
    }
    // The originals are not copied as they are: only processed variants are published.
    expect(readdirSync(site.file('dist/news'))).not.toContain('with-images');
  });

  it('takes every image from the cache on the next build, and keeps them when the article changes', async () => {
    const before = cacheEntries(site);
    expect(before.size).toBe(3);
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('output unchanged, nothing written');
    expect(cacheEntries(site)).toEqual(before);

    const source = await site.read('content/news/with-images/index.md');
    await site.write('content/news/with-images/index.md', source.replace('Intro.', 'A new intro.'));
    const edited = await site.run(['build']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(cacheEntries(site)).toEqual(before);
    const page = await site.read('dist/news/with-images.html');
    expect(page).toContain('A new intro.');
    for (const url of new Set(
      [...page.matchAll(/\/assets\/[\w.-]+\.(?:avif|webp|png|jpg)/g)].map((match) => match[0]),
    )) {
      expect(statSync(site.file(`dist${url}`)).size, url).toBeGreaterThan(0);
    }
  }, 120_000);

  it('renders the page again with new names when only an image changes', async () => {
    const before = await site.read('dist/news/with-images.html');
    await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#62a' } })
      .png()
      .toFile(site.file('content/news/with-images/chart.png'));
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    const after = await site.read('dist/news/with-images.html');
    const chart = (page: string) => /\/assets\/chart-1000w-\w+\.png/.exec(page)![0];
    expect(chart(after)).not.toBe(chart(before));
    expect(statSync(site.file(`dist${chart(after)}`)).isFile()).toBe(true);
  }, 120_000);
});

describe('images the site itself lists (team photos, share image)', () => {
  it('are processed, handed to pages, and kept in the cache from build to build', async () => {
    const site = await copySite(fixture);
    try {
      const definition = await site.read('site/index.tsx');
      await site.write(
        'site/index.tsx',
        definition
          .replace('export default defineSite({', "export default defineSite({\n  images: () => ['/photo.png'],")
          .replace(
            'return <h1>About us</h1>;',
            'return <h1>About us {JSON.stringify((data as { images?: unknown }).images)}</h1>;',
          )
          .replace('function About() {', 'function About({ data }: PageProps) {'),
      );
      await sharp({ create: { width: 500, height: 500, channels: 3, background: '#456' } })
        .png()
        .toFile(site.file('site/public/photo.png'));
      await addBundle(site);
      const first = await site.run(['build']);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(await site.read('dist/about.html')).toMatch(/&quot;\/photo\.png&quot;:\{&quot;width&quot;:500/);
      const before = cacheEntries(site);
      expect(before.size).toBe(4); // three article images and the photo
      const second = await site.run(['build']);
      expect(second.code, second.stderr).toBe(0);
      expect(cacheEntries(site)).toEqual(before);
    } finally {
      await site.dispose();
    }
  }, 120_000);
});

describe('image problems fail the build and leave the last good site as it was', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
    const first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
  }, 120_000);
  afterAll(() => site.dispose());

  const cases: Array<[string, string, Record<string, string | Buffer>, RegExp]> = [
    [
      'a missing image',
      '![Gone](./gone.png)',
      {},
      /\[ImageMissing\] An image is missing\n {2}content\/news\/broken\/index\.md:5: The image "\.\/gone\.png" does not exist/,
    ],
    [
      'no alt text',
      '![](./pic.png)',
      { 'pic.png': 'png' },
      /\[ImageAltMissing\] An image has no alt text\n {2}content\/news\/broken\/index\.md:5:/,
    ],
    [
      'another origin',
      '![Remote](https://cdn.example.org/pic.png)',
      {},
      /\[ImageRemote\] An image comes from another origin\n {2}content\/news\/broken\/index\.md:5: .*img-src 'self'/,
    ],
    [
      'a .png that is text',
      '![Text](./pic.png)',
      { 'pic.png': 'hello, I am text' },
      /\[ImageUnreadable\] An image cannot be read\n {2}content\/news\/broken\/index\.md:5: content\/news\/broken\/pic\.png: .*unsupported image format/,
    ],
    [
      'a truncated PNG',
      '![Cut](./pic.png)',
      { 'pic.png': 'truncated' },
      /\[ImageUnreadable\] An image cannot be read\n {2}content\/news\/broken\/index\.md:5: content\/news\/broken\/pic\.png: .*damaged or cut off/,
    ],
  ];

  it.each(cases)(
    '%s',
    async (_, markdown, files, message) => {
      await site.remove('content/news/broken');
      await site.write('content/news/broken/index.md', `---\ntitle: Broken\ndate: "2025-01-01"\n---\n${markdown}\n`);
      for (const [name, kind] of Object.entries(files)) {
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'red' } })
          .png()
          .toBuffer();
        const contents =
          kind === 'png' ? png : kind === 'truncated' ? png.subarray(0, png.length / 2) : Buffer.from(kind);
        await site.write(`content/news/broken/${name}`, contents as unknown as string);
      }
      const before = snapshotTree(site.file('dist'));
      const result = await site.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toMatch(message);
      expect(result.stdout + result.stderr).not.toContain('Unexpected internal error');
      expect(treeChanges(before, snapshotTree(site.file('dist')))).toEqual([]);
    },
    60_000,
  );
});
