import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../src/articles.ts';
import { emptyReads } from '../src/dependencies.ts';
import { listFiles } from '../src/output.ts';
import { openPageCache, type PageCacheInputs } from '../src/page-cache.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

async function snapshot(site: TempSite): Promise<Map<string, { mtimeMs: number; text: string }>> {
  const files = await listFiles(site.file('dist'));
  return new Map(
    files.map((file) => {
      const absolute = site.file(`dist/${file}`);
      return [file, { mtimeMs: statSync(absolute).mtimeMs, text: readFileSync(absolute, 'latin1') }];
    }),
  );
}

describe('rebuilds: output, bundle and page caches', () => {
  let site: TempSite;

  beforeAll(async () => {
    site = await copySite(fixture);
    const first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain('nothing written');
  });
  afterAll(() => site.dispose());

  it('a build with nothing changed writes nothing and leaves every file as it was', async () => {
    const before = await snapshot(site);
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('output unchanged, nothing written');
    // The summary still lists every page.
    expect(again.stdout).toMatch(/^\/news\/first-post\s+\d/m);
    const after = await snapshot(site);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, { mtimeMs }] of before) expect(after.get(file)!.mtimeMs, file).toBe(mtimeMs);
  });

  it('puts back output files changed, removed or added by hand', async () => {
    const before = await snapshot(site);
    writeFileSync(site.file('dist/about.html'), 'edited by hand');
    await site.remove('dist/robots.txt');
    await site.remove('dist/news/first-post');
    await site.write('dist/stray.html', 'not made by the build');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('nothing written');
    const after = await snapshot(site);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, { text }] of before) expect(after.get(file)!.text, file).toBe(text);
  });

  it('shows each kind of edit in the next build: code, template, article body and title, data', async () => {
    await site.write('site/index.tsx', (await site.read('site/index.tsx')).replace('<h1>About us</h1>', '<h1>About the team</h1>'));
    await site.write('templates/document.html', (await site.read('templates/document.html')).replace('<body>', '<body data-edited="yes">'));
    await site.write('content/news/first-post.md', (await site.read('content/news/first-post.md')).replace(/^title: .*$/m, 'title: Renamed post').replace('Some *text*', 'Some *new words*'));
    await site.write('content/site.yaml', 'baseUrl: https://edited.example\n');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    const about = await site.read('dist/about.html');
    expect(about).toContain('<h1>About the team</h1>');
    expect(about).toContain('<body data-edited="yes">');
    expect(about).toContain('<link rel="canonical" href="https://edited.example/about">');
    expect(await site.read('dist/index.html')).toContain('Renamed post');
    const post = await site.read('dist/news/first-post.html');
    expect(post).toContain('<title>Renamed post</title>');
    expect(post).toContain('<em>new words</em>');
    expect(post).toContain('https://edited.example/news/first-post');

    // An edit in a component file the site imports, and a new island file: both rebundled.
    await site.write('site/islands/counter.tsx', (await site.read('site/islands/counter.tsx')).replace('Add one', 'Add one more'));
    await site.write('site/islands/extra.tsx', 'export default function Extra() { return <b>extra</b>; }\n');
    const assetsBefore = (await listFiles(site.file('dist/assets'))).sort();
    const rebundled = await site.run(['build']);
    expect(rebundled.code, rebundled.stderr).toBe(0);
    expect((await listFiles(site.file('dist/assets'))).sort()).not.toEqual(assetsBefore);
    expect(await site.read('dist/index.html')).toContain('Add one more');
  });

  it('a build after deleting .cache is the same site', async () => {
    const before = await snapshot(site);
    await site.remove('.cache');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('2 converted, 0 from cache');
    const after = await snapshot(site);
    for (const [file, { text }] of before) expect(after.get(file)?.text, file).toBe(text);
  });
});

describe('the page cache', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-pages-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const article = (slug: string, title: string): Article => ({
    slug,
    title,
    date: '2025-01-01',
    excerpt: '',
    markdown: `# ${title}`,
    html: `<h1>${title}</h1>`,
    data: { title },
    draft: false,
    file: `content/news/${slug}.md`,
  });
  const inputs = (over: Partial<PageCacheInputs> = {}): PageCacheInputs => {
    const articles = over.articles ?? [article('a', 'A'), article('b', 'B')];
    return {
      cacheDir: dir,
      shared: ['code v1'],
      now: new Date('2026-11-22T10:00:00Z'),
      articles,
      keys: new Map(articles.map((item) => [item.file, `key of ${item.markdown}`])),
      data: { site: { name: 'One' }, team: ['x'] },
      ...over,
    };
  };
  const page = { html: '<p>page</p>', islands: [] };

  /** Stores two pages: one that read article a and `site`, one that read the list. */
  function store(over?: Partial<PageCacheInputs>) {
    const cache = openPageCache(inputs(over));
    const own = emptyReads();
    own.articleFields.set('a', new Set(['title']));
    own.dataKeys.add('site');
    cache.set('news/a/index.html', 'entry a', page, own);
    const list = emptyReads();
    list.articleList = true;
    cache.set('news/index.html', 'entry list', page, list);
    cache.save();
  }

  it('gives a page back while nothing it read changed, and only then', () => {
    store();
    // Another article and another data file changed: the article page is still good, the list is not.
    const other = openPageCache(inputs({ articles: [article('a', 'A'), article('b', 'B2')], data: { site: { name: 'One' }, team: ['y'] } }));
    expect(other.get('news/a/index.html', 'entry a')).toMatchObject(page);
    expect(other.get('news/index.html', 'entry list')).toBeUndefined();

    store();
    expect(openPageCache(inputs({ articles: [article('a', 'A2'), article('b', 'B')] })).get('news/a/index.html', 'entry a')).toBeUndefined();
    store();
    expect(openPageCache(inputs({ data: { site: { name: 'Two' }, team: ['x'] } })).get('news/a/index.html', 'entry a')).toBeUndefined();
    store();
    expect(openPageCache(inputs()).get('news/a/index.html', 'another entry')).toBeUndefined();
  });

  it('keeps nothing across a change of code or options, or into another day', () => {
    store();
    expect(openPageCache(inputs({ shared: ['code v2'] })).get('news/a/index.html', 'entry a')).toBeUndefined();
    store();
    expect(openPageCache(inputs({ now: new Date('2026-11-22T23:59:00Z') })).get('news/a/index.html', 'entry a')).toMatchObject(page);
    expect(openPageCache(inputs({ now: new Date('2026-11-23T00:01:00Z') })).get('news/a/index.html', 'entry a')).toBeUndefined();
  });
});
