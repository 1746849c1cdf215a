import sharp from 'sharp';
import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempSite } from './helpers/project.ts';
import { buildRealSite } from './helpers/site.ts';

const BASE = 'https://validators.example';
const TAGS = ['Ethereum', 'Celo', 'Company News'];
const pngSize = (png: Buffer) => ({
  signature: png.subarray(1, 4).toString(),
  width: png.readUInt32BE(16),
  height: png.readUInt32BE(20),
});
const links = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)">`, 'g'))].map((m) => m[1]);
const meta = (html: string, key: string) => new RegExp(`<meta property="${key}" content="([^"]*)">`).exec(html)?.[1];

/** 24 articles besides hello-world, a day apart, tagged in turn; one with a very long title. */
async function addArticles(site: TempSite): Promise<void> {
  for (let i = 1; i <= 24; i++) {
    const day = String(i).padStart(2, '0');
    const title = i === 24 ? 'A very long title '.repeat(12).trim() : `Story ${i}`;
    const tags = i % 2 === 0 ? [TAGS[i % 3]!, 'ethereum'] : [TAGS[i % 3]!];
    await site.write(
      `content/news/story-${i}.md`,
      `---\ntitle: ${title}\ndate: "2025-02-${day}"\ntags: [${tags.join(', ')}]\n---\nSee [the networks](/networks) and ![a chart](/chart.png).\n`,
    );
  }
}

describe('a news section of 25 articles with tags', () => {
  let site: TempSite;
  let stdout = '';
  const read = (file: string) => site.read(`dist/${file}`);

  beforeAll(async () => {
    site = await buildRealSite(async (copy) => {
      await addArticles(copy);
      // A real image: the build processes every image an article shows.
      const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      await copy.write('site/public/chart.png', png);
    });
    // Built again: the summary of a build from the cache (non-TTY) is what a log holds.
    const again = await site.run(['build']);
    expect(again.code).toBe(0);
    stdout = again.stdout + again.stderr;
  }, 120_000);
  afterAll(() => site?.dispose());

  it('splits the news list into pages of 10, newest first, linked by rel prev/next', async () => {
    const [first, second, third] = await Promise.all([
      read('news.html'),
      read('news/page/2.html'),
      read('news/page/3.html'),
    ]);
    const titles = (html: string) => [...html.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(titles(first).slice(0, 3)).toEqual(['A very long title '.repeat(12).trim(), 'Story 23', 'Story 22']);
    expect([titles(first).length, titles(second).length, titles(third).length]).toEqual([10, 10, 5]);
    expect(titles(third).at(-1)).toBe('Hello world');
    expect(new Set([...titles(first), ...titles(second), ...titles(third)]).size).toBe(25);
    expect([links(first, 'prev'), links(first, 'next')]).toEqual([[], [`${BASE}/news/page/2`]]);
    expect([links(second, 'prev'), links(second, 'next')]).toEqual([[`${BASE}/news`], [`${BASE}/news/page/3`]]);
    expect([links(third, 'prev'), links(third, 'next')]).toEqual([[`${BASE}/news/page/2`], []]);
    expect(first).toContain('<h1>News</h1>');
    expect(first).toContain('Updates from Example Validators.');
    expect(second).toContain('<title>News (page 2) | Example Validators</title>');
    await expect(read('news/page/4.html')).rejects.toThrow();
  });

  it('has a page per tag (spellings with one slug on one page), paginated too, and tag links on cards', async () => {
    const ethereum = await read('news/tags/ethereum.html');
    expect(ethereum).toContain('News tagged “Ethereum”');
    // 12 even-numbered stories plus the odd ones whose turn tag is Ethereum: more than a page.
    expect(links(ethereum, 'next')).toEqual([`${BASE}/news/tags/ethereum/page/2`]);
    expect(await read('news/tags/ethereum/page/2.html')).toContain(
      `<link rel="prev" href="${BASE}/news/tags/ethereum">`,
    );
    expect(await read('news/tags/company-news.html')).toContain('News tagged “Company News”');
    expect(await read('news.html')).toContain('<a class="tag" href="/news/tags/company-news">Company News</a>');
    expect(await read('news/story-2.html')).toContain('<a class="tag" href="/news/tags/ethereum">');
  });

  it('lists every list page and tag page in the sitemap', async () => {
    const urls = (new XMLParser().parse(await read('sitemap.xml')).urlset.url as Array<{ loc: string }>).map(
      (url) => url.loc,
    );
    for (const path of [
      '/news',
      '/news/page/2',
      '/news/page/3',
      '/news/tags/ethereum',
      '/news/tags/ethereum/page/2',
      '/news/tags/celo',
      '/news/tags/company-news',
      '/news/tags/announcement',
    ]) {
      expect(urls).toContain(BASE + path);
    }
    expect(urls.filter((url) => url.includes('/news/story-'))).toHaveLength(24);
  });

  it('draws a 1200×630 PNG share card per article, named in og:image with its size, alt and date', async () => {
    for (const slug of ['hello-world', 'story-1', 'story-24']) {
      const html = await read(`news/${slug}.html`);
      expect(meta(html, 'og:image')).toBe(`${BASE}/news/${slug}.png`);
      expect([meta(html, 'og:image:width'), meta(html, 'og:image:height')]).toEqual(['1200', '630']);
      expect(meta(html, 'og:image:alt')).toMatch(/, Example Validators$/);
      expect(pngSize(await readFile(site.file(`dist/news/${slug}.png`)))).toEqual({
        signature: 'PNG',
        width: 1200,
        height: 630,
      });
    }
    expect(meta(await read('news/story-1.html'), 'article:published_time')).toBe('2025-02-01');
    expect(meta(await read('news/story-1.html'), 'og:image:alt')).toBe('Story 1, 1 February 2025, Example Validators');
    // Other pages keep the site-wide share image, as the build processed it.
    expect(meta(await read('about.html'), 'og:image')).toMatch(
      new RegExp(`^${BASE.replace(/[.]/g, '\\.')}/assets/og-image-1200w-[0-9a-f]{10}\\.jpg$`),
    );
  });

  it('writes absolute links and images in the feed', async () => {
    const feed = await read('news/feed.xml');
    expect(feed).toContain(`href="${BASE}/networks"`);
    expect(feed).toMatch(new RegExp(`src="${BASE.replace(/[.]/g, '\\.')}/assets/chart-[^"]+\\.png"`));
    expect(feed).not.toMatch(/(?:href|src)="\//);
  });

  it('prints nothing but the summary when the output is not a terminal', () => {
    expect(stdout).not.toContain('\x1b');
    expect(stdout).not.toContain('\r');
    expect(stdout).not.toContain('Converting Markdown');
  });
});

describe('a tag that makes no URL', () => {
  it('stops the build naming the file, and leaves the previous site as it was', async () => {
    const site = await buildRealSite();
    try {
      const before = await site.read('dist/news.html');
      await site.write(
        'content/news/bad-tags.md',
        '---\ntitle: Bad\ndate: "2025-05-01"\ntags: [fine, "%%%"]\n---\nBody\n',
      );
      const result = await site.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[TagInvalid] A tag makes no URL\n  content/news/bad-tags.md: ');
      expect(result.stderr).toContain('"%%%" has no letters or digits');
      expect(result.stderr).not.toContain('Unexpected internal error');
      expect(await site.read('dist/news.html')).toBe(before);
    } finally {
      await site.dispose();
    }
  }, 120_000);
});
