import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { buildRealSite } from './helpers/site.ts';

const BASE = 'https://validators.example';
const routes = [
  '/',
  '/about',
  '/services',
  '/networks',
  '/contact',
  '/contact/no-script',
  '/news',
  '/news/hello-world',
  '/news/second-story',
  '/legal',
];
const NOINDEX = '/contact/no-script';
const fileOf = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}.html`);
const xml = new XMLParser({ ignoreAttributes: false });

describe('what the build ships for search engines, readers and browsers', () => {
  let site: TempSite;
  const pages = new Map<string, string>();
  const meta = (html: string, key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1];
  const jsonLd = (html: string) =>
    [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));

  beforeAll(async () => {
    site = await buildRealSite((copy) =>
      copy.write(
        'content/news/second-story.md',
        '---\ntitle: A second story\ndate: "2025-03-04"\nexcerpt: More news & notes.\nupdated: "2025-03-10"\n---\nText with <b>raw</b> & an ampersand.',
      ),
    );
    for (const route of routes) pages.set(route, await site.read(`dist/${fileOf(route)}`));
  });
  afterAll(() => site?.dispose());

  it('every page has its own title and meta description, a canonical URL, lang and a favicon', () => {
    const titles = routes.map((route) => /<title>([^<]+)<\/title>/.exec(pages.get(route)!)![1]);
    const descriptions = routes.map((route) => meta(pages.get(route)!, 'description'));
    expect(new Set(titles).size).toBe(routes.length);
    expect(new Set(descriptions).size).toBe(routes.length);
    for (const route of routes) {
      const html = pages.get(route)!;
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      // The contact form's no-script answer is a noindex route: no canonical URL, kept from search engines.
      if (route === NOINDEX) {
        expect(html).toContain('<meta name="robots" content="noindex">');
        expect(html).not.toContain('rel="canonical"');
      } else {
        expect(html).toContain(`<link rel="canonical" href="${BASE}${route === '/' ? '/' : route}">`);
        expect(html).not.toContain('noindex');
      }
      expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
    expect(/<title>([^<]+)/.exec(pages.get('/news/second-story')!)![1]).toBe('A second story | Example Validators');
    expect(meta(pages.get('/news/second-story')!, 'description')).toBe('More news &amp; notes.');
  });

  it('every page has Open Graph and Twitter card tags, the manifest and the feed link', () => {
    for (const route of routes) {
      const html = pages.get(route)!;
      expect(meta(html, 'og:title'), route).toBe(/<title>([^<]+)/.exec(html)![1]);
      expect(meta(html, 'og:url')).toBe(route === NOINDEX ? undefined : `${BASE}${route === '/' ? '/' : route}`);
      // Articles: their own share card; other pages: the share image as the build processed it.
      if (route.startsWith('/news/')) expect(meta(html, 'og:image')).toBe(`${BASE}${route}.png`);
      else
        expect(meta(html, 'og:image')).toMatch(
          new RegExp(`^${BASE.replace(/[.]/g, '\\.')}/assets/og-image-1200w-[0-9a-f]{10}\\.jpg$`),
        );
      expect(meta(html, 'og:site_name')).toBe('Example Validators');
      expect(meta(html, 'og:type')).toBe(route.startsWith('/news/') ? 'article' : 'website');
      expect(meta(html, 'twitter:card')).toBe('summary_large_image');
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      expect(html).toContain(
        '<link rel="alternate" type="application/rss+xml" title="News from Example Validators" href="/news/feed.xml">',
      );
    }
  });

  it('writes a web manifest and the share image', async () => {
    const manifest = JSON.parse(await site.read('dist/manifest.webmanifest'));
    expect(manifest).toMatchObject({
      name: 'Example Validators',
      start_url: '/',
      lang: 'en-GB',
      icons: [{ src: '/favicon.svg' }],
    });
    expect((await readFile(site.file('dist/og-image.jpg'))).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const shared = meta(pages.get('/')!, 'og:image')!.replace(BASE, '');
    expect((await readFile(site.file(`dist${shared}`))).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('describes the company as a schema.org Organization on the home page', () => {
    const [organization, ...rest] = jsonLd(pages.get('/')!);
    expect(rest).toEqual([]);
    expect(organization).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: 'Example Validators GmbH',
      email: 'hello@example.com',
      address: { '@type': 'PostalAddress', addressLocality: 'Vienna', addressCountry: 'AT', postalCode: '1010' },
    });
    expect(organization.sameAs).toHaveLength(4);
    expect(jsonLd(pages.get('/about')!)).toEqual([]);
  });

  it('describes each article as a schema.org NewsArticle', () => {
    expect(jsonLd(pages.get('/news/second-story')!)).toEqual([
      expect.objectContaining({
        '@type': 'NewsArticle',
        headline: 'A second story',
        datePublished: '2025-03-04',
        dateModified: '2025-03-10',
        mainEntityOfPage: `${BASE}/news/second-story`,
      }),
    ]);
  });

  it('has no executable inline script on any page but those the policy allows by their hash', async () => {
    const csp = /Content-Security-Policy: (.+)/.exec(await site.read('dist/_headers'))![1]!;
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
    for (const route of routes) {
      for (const [, attributes, body] of pages
        .get(route)!
        .matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (attributes === ' type="application/ld+json"') continue;
        const hash = `'sha256-${createHash('sha256').update(body!).digest('base64')}'`;
        expect(scriptSrc, `${route}: an inline script the policy does not allow`).toContain(hash);
      }
    }
  });

  it('sitemap.xml is well formed and lists every route and article, articles with lastmod', async () => {
    const text = await site.read('dist/sitemap.xml');
    expect(XMLValidator.validate(text)).toBe(true);
    const urls = xml.parse(text).urlset.url as Array<{ loc: string; lastmod?: string }>;
    // Besides the routes above (but the no-script contact answer, a noindex route): a page per tag of hello-world.
    const english = [...routes.filter((route) => route !== NOINDEX), '/news/tags/announcement', '/news/tags/company'];
    // And each in German (but the second story, written in English only), the German tags' pages too.
    const german = [
      ...english
        .filter((route) => route !== '/news/second-story' && !route.startsWith('/news/tags/'))
        .map((route) => (route === '/' ? '/de' : `/de${route}`)),
      '/de/news/tags/ankundigung',
      '/de/news/tags/unternehmen',
    ];
    expect(urls.map((url) => url.loc).sort()).toEqual(
      [...english, ...german].map((route) => `${BASE}${route === '/' ? '/' : route}`).sort(),
    );
    expect(urls.find((url) => url.loc.endsWith('/news/hello-world'))!.lastmod).toBe('2025-01-01');
    expect(urls.find((url) => url.loc.endsWith('/news/second-story'))!.lastmod).toBe('2025-03-10');
    expect(urls.some((url) => url.loc.includes('404'))).toBe(false);
  });

  it('robots.txt names the sitemap', async () => {
    expect(await site.read('dist/robots.txt')).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it('the RSS feed is well formed, with its required elements, newest first', async () => {
    const text = await site.read('dist/news/feed.xml');
    expect(XMLValidator.validate(text)).toBe(true);
    const channel = xml.parse(text).rss.channel;
    expect(channel).toMatchObject({
      title: 'News from Example Validators',
      link: `${BASE}/`,
      description: 'Updates from Example Validators.',
    });
    expect(channel['atom:link']['@_href']).toBe(`${BASE}/news/feed.xml`);
    const items = channel.item as Array<Record<string, any>>;
    expect(items.map((item) => item.title)).toEqual(['A second story', 'Hello world']);
    // The description is HTML (as RSS readers take it), escaped once more as XML.
    expect(items[0]).toMatchObject({
      link: `${BASE}/news/second-story`,
      pubDate: 'Tue, 04 Mar 2025 00:00:00 +0000',
      description: 'More news &amp; notes.',
    });
    expect(items[0]!.guid['#text']).toBe(`${BASE}/news/second-story`);
    expect(items[0]!['content:encoded']).toMatch(/<p>Text with <b>raw<\/b> &(amp|#x26); an ampersand\.<\/p>/);
  });

  it('writes _headers with a strict Content-Security-Policy and the other security headers', async () => {
    const headers = await site.read('dist/_headers');
    const csp = /Content-Security-Policy: (.+)/.exec(headers)![1]!;
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!;
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(headers).toMatch(/Strict-Transport-Security: max-age=\d{8,}/);
    expect(headers).toContain('X-Content-Type-Options: nosniff');
    expect(headers).toContain('Referrer-Policy: strict-origin-when-cross-origin');
    expect(headers).toMatch(/Permissions-Policy: .*camera=\(\)/);
  });

  it('allows the challenge provider (and nothing else from outside) for script and frame', async () => {
    const production = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots']);
    try {
      expect((await production.run(['build'])).code).toBe(0);
      const csp = /Content-Security-Policy: (.+)/.exec(await production.read('dist/_headers'))![1]!;
      // The origin itself, the provider, and inline code allowed by hash only.
      const scriptSources = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
      expect(scriptSources.slice(0, 2)).toEqual(["'self'", 'https://challenges.cloudflare.com']);
      for (const source of scriptSources.slice(2)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
      expect(/frame-src ([^;]+)/.exec(csp)![1]).toBe('https://challenges.cloudflare.com');
      const outside = csp.match(/https?:\/\/[^\s;]+/g) ?? [];
      expect(new Set(outside)).toEqual(new Set(['https://challenges.cloudflare.com']));
    } finally {
      await production.dispose();
    }
  });

  it('writes precompressed .br and .gz beside its text assets', async () => {
    const assets = await readdir(site.file('dist/assets'));
    const scripts = assets.filter((name) => /\.(js|css)$/.test(name));
    expect(scripts.length).toBeGreaterThan(3);
    for (const name of scripts) {
      const original = await readFile(site.file(`dist/assets/${name}`));
      if (original.length < 256) continue;
      expect(brotliDecompressSync(await readFile(site.file(`dist/assets/${name}.br`)))).toEqual(original);
      expect(gunzipSync(await readFile(site.file(`dist/assets/${name}.gz`)))).toEqual(original);
    }
    expect(gunzipSync(await readFile(site.file('dist/sitemap.xml.gz'))).toString()).toBe(
      await site.read('dist/sitemap.xml'),
    );
  });
});

describe('the feed', () => {
  it('carries the 50 newest articles', async () => {
    const site = await buildRealSite(async (copy) => {
      for (let n = 0; n < 60; n++) {
        await copy.write(
          `content/news/story-${n}.md`,
          `---\ntitle: Story ${n}\ndate: "2024-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}"\n---\nBody ${n}`,
        );
      }
    });
    try {
      const channel = xml.parse(await site.read('dist/news/feed.xml')).rss.channel;
      expect(channel.item).toHaveLength(50);
      const dates = (channel.item as Array<{ pubDate: string }>).map((item) => Date.parse(item.pubDate));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      expect(channel.item[0].title).toBe('Hello world');
    } finally {
      await site.dispose();
    }
  });
});

describe('internal links', () => {
  it('a link to a path no route or public file provides fails the build, naming the page and the link', async () => {
    const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    try {
      expect((await site.run(['build'])).code).toBe(0);
      const before = await site.read('dist/index.html');
      const original = await site.read('site/index.tsx');
      await site.write(
        'site/index.tsx',
        original.replace(
          'return <h1>About us</h1>;',
          'return <><h1>About us</h1><a href="/team">Team</a><img src="/missing.png" alt="" /><a href="/news/first-post#top">ok</a><a href="/robots.txt">ok</a></>;',
        ),
      );
      const result = await site.run(['build']);
      expect(result.code).toBe(1);
      // Written in the site's code: named by the file and line that holds it.
      expect(result.stderr).toMatch(
        /\[LinkBroken\] A link leads nowhere\n {2}site\/index\.tsx:\d+: The page \/about links to \/team, which no route or public file provides\./,
      );
      expect(result.stderr).toMatch(
        /\[LinkBroken\] A link leads nowhere\n {2}site\/index\.tsx:\d+: The page \/about links to \/missing\.png, which no route or public file provides\./,
      );
      expect(result.stderr).not.toContain('links to /news/first-post');
      expect(result.stderr).not.toContain('links to /robots.txt');
      expect(await site.read('dist/index.html')).toBe(before);
    } finally {
      await site.dispose();
    }
  });
});
