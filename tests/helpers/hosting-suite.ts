import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { headersFor, parseHeadersFile } from '../../src/server/headers-file.ts';
import type { TempSite } from './project.ts';
import { buildRealSite, CHALLENGE_STAND_IN_PATH, challengeStandIn } from './site.ts';
import { cspViolations, get, missingHeaders, securityHeaders, sitemapPaths, someAsset } from './hosting-checks.ts';

export interface Host {
  url: string;
  close(): Promise<void>;
}

export interface HostingContext {
  site: TempSite;
  dist: string;
  host: Host;
}

/**
 * The behaviour every host the deploy guides describe must show for the built site: each page at its
 * canonical URL with 200 and no redirect, the two 404 pages with status 404, the security headers
 * on pages, assets and 404s, long caching only for assets that exist, the right types, and no
 * Content-Security-Policy violation in Chromium. `start` serves the site's dist/.
 */
export function hostingSuite(start: (site: TempSite) => Promise<Host>): { context: () => HostingContext } {
  let context: HostingContext | undefined;
  beforeAll(async () => {
    // A moved address of each kind, as a site that had another URL scheme declares them.
    const site = await buildRealSite(async (copy) => {
      const index = await copy.read('site/index.tsx');
      const opening = /export default defineSite<[^>]*>\(\{/;
      // A site whose route table no longer opens so would build without the redirect: say so.
      if (!opening.test(index))
        throw new Error('site/index.tsx: no "export default defineSite<…>({" to add a redirect to');
      await copy.write(
        'site/index.tsx',
        index.replace(opening, (found) => `${found}\n  redirects: { '/blog': '/news' },`),
      );
      const article = await copy.read('content/news/hello-world.md');
      await copy.write(
        'content/news/hello-world.md',
        article.replace('tags: [', 'aliases: [/blog/hello-world]\ntags: ['),
      );
    });
    // The bot-challenge stand-in as a file, so a plain static host serves it.
    await site.write(`dist${CHALLENGE_STAND_IN_PATH}`, challengeStandIn);
    context = { site, dist: site.file('dist'), host: await start(site) };
  });
  afterAll(async () => {
    await context?.host.close();
    await context?.site.dispose();
  });
  const ctx = () => context!;

  it('answers every page of the sitemap at its canonical URL with 200 and no redirect', async () => {
    const paths = await sitemapPaths(ctx().dist);
    expect(paths).toEqual(expect.arrayContaining(['/', '/about', '/news', '/news/hello-world', '/contact', '/legal']));
    for (const urlPath of paths) {
      const answer = await get(ctx().host.url + urlPath);
      expect({ urlPath, status: answer.status, location: answer.headers.get('location') }).toEqual({
        urlPath,
        status: 200,
        location: null,
      });
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.body).toContain(`<link rel="canonical" href="`);
      expect(answer.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${urlPath === '/' ? '/' : urlPath}"`));
    }
  });

  it('serves the editor at /admin/ with its own headers: one policy, noindex, the bundle beside it', async () => {
    const rules = parseHeadersFile(await readFile(path.join(ctx().dist, '_headers'), 'utf8'));
    const policy = headersFor(rules, '/admin/')['Content-Security-Policy'];
    expect(policy).toContain("'unsafe-eval'");
    for (const urlPath of ['/admin/', '/admin/decap-cms.js']) {
      const answer = await get(ctx().host.url + urlPath);
      expect({ urlPath, status: answer.status }).toEqual({ urlPath, status: 200 });
      // Both policies sent would read as one joined by a comma, and the stricter would block the editor.
      expect(answer.headers.get('content-security-policy')).toBe(policy);
      expect(answer.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
    expect((await get(`${ctx().host.url}/admin/`)).body).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  it('answers a moved address, with or without its slash, with one permanent redirect to where it moved', async () => {
    for (const [urlPath, target] of [
      ['/blog', '/news'],
      ['/blog/', '/news'],
      ['/blog/hello-world', '/news/hello-world'],
    ] as const) {
      const answer = await get(ctx().host.url + urlPath);
      expect({ urlPath, status: answer.status }).toEqual({ urlPath, status: 301 });
      const location = new URL(answer.headers.get('location')!, ctx().host.url);
      expect(location.pathname).toBe(target);
      expect((await get(location.href)).status).toBe(200);
    }
  });

  it('answers a missing path with the nearest 404 page and status 404', async () => {
    const root = await get(`${ctx().host.url}/nope`);
    expect(root.status).toBe(404);
    expect(root.body).toContain('Not found');
    expect(root.body).not.toContain('The article does not exist.');
    const article = await get(`${ctx().host.url}/news/nope`);
    expect(article.status).toBe(404);
    expect(article.body).toContain('The article does not exist.');
    // Below /de, the German ones.
    const german = await get(`${ctx().host.url}/de/nope`);
    expect(german.status).toBe(404);
    expect(german.body).toContain('Diese Seite gibt es nicht.');
    const germanArticle = await get(`${ctx().host.url}/de/news/nope`);
    expect(germanArticle.status).toBe(404);
    expect(germanArticle.body).toContain('Diesen Artikel gibt es nicht.');
  });

  it('puts the security headers on pages, assets, 404s and a missing asset, and caches only existing assets for long', async () => {
    const expected = await securityHeaders(ctx().dist);
    const asset = await someAsset(ctx().dist);
    for (const urlPath of [
      '/',
      '/about',
      '/news/hello-world',
      asset,
      '/nope',
      '/news/nope',
      '/assets/nope.js',
      '/manifest.webmanifest',
    ]) {
      const answer = await get(ctx().host.url + urlPath);
      expect({ urlPath, missing: missingHeaders(answer.headers, expected) }).toEqual({ urlPath, missing: [] });
    }
    expect((await get(ctx().host.url + asset)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const missingAsset = await get(`${ctx().host.url}/assets/nope.js`);
    expect(missingAsset.status).toBe(404);
    expect(missingAsset.headers.get('cache-control') ?? '').not.toMatch(/immutable|max-age=[1-9]/);
  });

  it('serves the manifest and the feed with their types, and never the host configuration files', async () => {
    expect((await get(`${ctx().host.url}/manifest.webmanifest`)).headers.get('content-type')).toMatch(
      /^application\/manifest\+json/,
    );
    expect((await get(`${ctx().host.url}/news/feed.xml`)).headers.get('content-type')).toMatch(
      /^(application\/rss\+xml|application\/xml|text\/xml)/,
    );
    const headersFile = await get(`${ctx().host.url}/_headers`);
    expect(headersFile.status).not.toBe(200);
    expect(headersFile.body).not.toContain('Content-Security-Policy:');
  });

  it('shows every page in Chromium without a Content-Security-Policy violation', async () => {
    const paths = [...(await sitemapPaths(ctx().dist)), '/nope', '/news/nope'];
    expect(await cspViolations(ctx().host.url, paths)).toEqual([]);
  });

  return { context: ctx };
}
