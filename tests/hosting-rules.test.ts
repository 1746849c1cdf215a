import fc from 'fast-check';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvesTo } from '../src/render/links.ts';
import { isNotFoundPath, outputPathFor } from '../src/render/routes.ts';
import { sitePathOf } from '../src/server/request-target.ts';
import { NGINX_HEADERS_FILE } from '../src/render/site-files.ts';
import { findStaticFile } from '../src/server/static-lookup.ts';
import { repoRoot } from './helpers/project.ts';

/** What the static handler finds for a request path: its file and status; 400 when it names no file. */
async function resolveStaticPath(root: string, url: string): Promise<{ file: string; status: number } | undefined> {
  const sitePath = sitePathOf(url);
  if (sitePath === undefined) return { file: path.join(root, '(bad request)'), status: 400 };
  const found = await findStaticFile(root, sitePath);
  if (!found || found === 'no-site') return undefined;
  await found.opened.handle.close();
  return { file: found.opened.file, status: found.status };
}

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}$/);
const urlPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);

describe('the output file of a URL path', () => {
  it('is PATH.html for every path but /, never a folder index, and inverts to the path', () => {
    fc.assert(
      fc.property(urlPath, (url) => {
        const file = outputPathFor(url);
        expect(file).toBe(`${url.slice(1)}.html`);
        expect(file).not.toMatch(/(^|\/)index\.html$|^\/|\.\./);
        expect(`/${file.replace(/\.html$/, '')}`).toBe(url);
      }),
    );
    expect(outputPathFor('/')).toBe('index.html');
  });

  it('treats a trailing slash or doubled slashes as the same file', () => {
    fc.assert(
      fc.property(urlPath, (url) => {
        expect(outputPathFor(`${url}/`)).toBe(outputPathFor(url.replaceAll('/', '//')));
      }),
    );
  });

  it('marks only a last segment of exactly 404 as a not-found page', () => {
    expect([
      isNotFoundPath('/404'),
      isNotFoundPath('/news/404'),
      isNotFoundPath('/x404'),
      isNotFoundPath('/404/x'),
    ]).toEqual([true, true, false, false]);
    fc.assert(
      fc.property(urlPath, (url) => {
        expect(isNotFoundPath(url)).toBe(url.endsWith('/404'));
      }),
    );
  });
});

describe('the static lookup (preview, serve, dev) and the link check agree on the layout', () => {
  let root: string;
  const pages = [
    'index.html',
    'about.html',
    'news.html',
    'news/hello.html',
    'news/404.html',
    '404.html',
    'docs/index.html',
  ];
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ssg-layout-'));
    for (const page of pages) {
      await mkdir(path.dirname(path.join(root, page)), { recursive: true });
      await writeFile(path.join(root, page), page);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it.each([
    ['/', 'index.html', 200],
    ['/about', 'about.html', 200],
    ['/news', 'news.html', 200],
    ['/news/hello', 'news/hello.html', 200],
    ['/docs/', 'docs/index.html', 200],
    ['/about/', '404.html', 404],
    ['/news/nope', 'news/404.html', 404],
    ['/nope', '404.html', 404],
  ])('%s → %s (%i)', async (url, file, status) => {
    expect(await resolveStaticPath(root, url)).toEqual({ file: path.join(root, file), status });
  });

  it('finds a page exactly when the link check accepts its URL, for random and malformed paths', async () => {
    const files = new Set(pages);
    // Found by this property on a random seed: `/.` is the home page to the servers and to the link check.
    expect([resolvesTo('/.', files), resolvesTo('/news/..', files)]).toEqual([true, true]);
    const anyPath = fc.oneof(
      urlPath,
      urlPath.map((url) => `${url}/`),
      fc.constantFrom(
        '/about',
        '/news/hello',
        '/docs/',
        '/docs',
        '/about.html',
        '/%E0%A4%A',
        '/..%2f..%2fetc',
        '/news/../about',
      ),
      fc.string({ maxLength: 20 }).map((text) => `/${text}`),
    );
    await fc.assert(
      fc.asyncProperty(anyPath, async (url) => {
        const resolved = await resolveStaticPath(root, url);
        expect(resolved).toBeDefined();
        expect(resolved!.file.startsWith(root + path.sep)).toBe(true);
        if (!url.includes('..') && !url.includes('%')) expect(resolved!.status === 200).toBe(resolvesTo(url, files));
      }),
      { numRuns: 300 },
    );
  });
});

describe('netlify.toml', () => {
  it('gives each folder with its own 404 page a 404 rule, deepest first, hides the nginx headers file, and nothing else', async () => {
    const toml = await readFile(path.join(repoRoot, 'netlify.toml'), 'utf8');
    const rules = [...toml.matchAll(/\[\[redirects\]\]\s*from = "([^"]+)"\s*to = "([^"]+)"\s*status = (\d+)/g)].map(
      (match) => match.slice(1),
    );
    expect((toml.match(/\[\[redirects\]\]/g) ?? []).length).toBe(rules.length);
    // The route table's not-found pages below the root, in each locale: /de/news/404, /de/404, /news/404.
    const site = await readFile(path.join(repoRoot, 'site', 'index.tsx'), 'utf8');
    const folders = [...site.matchAll(/path: '(\/[^']+)?\/404'/g)].map((match) => match[1] ?? '');
    const { i18n } = await import('../site/locales.ts');
    const prefixes = i18n.locales.filter((locale) => locale !== i18n.defaultLocale).map((locale) => `/${locale}`);
    const nested = [...prefixes.flatMap((prefix) => folders.map((folder) => prefix + folder)), ...folders]
      .filter(Boolean)
      .sort((a, b) => b.split('/').length - a.split('/').length);
    expect(nested).toEqual(['/de/news', '/de', '/news']);
    expect(rules).toEqual([
      ...nested.map((folder) => [`${folder}/*`, `${folder}/404.html`, '404']),
      [`/${NGINX_HEADERS_FILE}`, '/404.html', '404'],
    ]);
    // Forced: the file exists, and an unforced rule never shadows a file.
    expect(toml).toMatch(new RegExp(`from = "/${NGINX_HEADERS_FILE.replace(/\./g, '\\.')}"[^[]*force = true`));
    expect(toml).toMatch(/publish = "dist"/);
  });
});
