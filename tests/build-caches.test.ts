import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deserialize } from 'node:v8';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { readEntrySync, writeEntrySync } from '../src/cache/store.ts';
import { emptyReads } from '../src/render/dependencies.ts';
import { markdownHtmlDir, type StoredMarkdown } from '../src/content/markdown-cache.ts';
import { listFiles, outputHash } from '../src/output/output-file.ts';
import { openPageCache, pageCacheFile, pageHtmlDir, type PageCacheInputs } from '../src/render/page-cache.ts';
import { corruptionKinds, corruptions, damage, type Corruption } from './helpers/corrupt.ts';
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

  it("keeps a rendered page's cache entry as a second name of its output file, and never ships that entry once the file was edited in place", async () => {
    const entryOf = (file: string) =>
      path.join(
        pageHtmlDir(site.file('.cache/ssg')),
        `${Buffer.from(outputHash(readFileSync(site.file(`dist/${file}`))), 'base64').toString('hex')}.html`,
      );
    await site.write(
      'content/news/first-post.md',
      `${await site.read('content/news/first-post.md')}\nA paragraph written for this test.\n`,
    );
    const built = await site.run(['build']);
    expect(built.code, built.stderr).toBe(0);
    const page = 'news/first-post.html';
    const original = await site.read(`dist/${page}`);
    expect(original).toContain('A paragraph written for this test.');
    // Rendered by this build: its entry is the same file as the page in dist/, nothing written twice.
    expect(statSync(entryOf(page)).ino).toBe(statSync(site.file(`dist/${page}`)).ino);
    // Edited in place (the same file, so the entry reads the edit too), then the output is lost:
    // the entry no longer matches its name, so the page is rendered again, not copied from it.
    writeFileSync(site.file(`dist/${page}`), original.replace('A paragraph written for this test.', 'Edited by hand.'));
    await site.remove('dist');
    await forgetLastBuild(site);
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    expect(await site.read(`dist/${page}`)).toBe(original);
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

  it('a build whose pages all render again to the same bytes leaves the output untouched: the next one has nothing to do, and no temporary entry is left', async () => {
    const tz = { TZ: 'Pacific/Auckland' };
    // Another time zone: the page cache holds nothing for it, every page renders again, to the same bytes.
    const again = await site.run(['build'], tz);
    expect(again.code, again.stderr).toBe(0);
    const before = await snapshot(site);
    const inodes = new Map([...before.keys()].map((file) => [file, statSync(site.file(`dist/${file}`)).ino]));
    const ctimes = new Map([...before.keys()].map((file) => [file, statSync(site.file(`dist/${file}`)).ctimeMs]));
    const twice = await site.run(['build'], tz);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toContain('inputs unchanged');
    for (const [file, ino] of inodes) {
      expect(statSync(site.file(`dist/${file}`)).ino, file).toBe(ino);
      expect(statSync(site.file(`dist/${file}`)).ctimeMs, file).toBe(ctimes.get(file));
    }
    expect(
      readdirSync(pageHtmlDir(site.file('.cache/ssg'))).filter((name) => !/^[0-9a-f]{40}\.html$/.test(name)),
    ).toEqual([]);
  });

  it('keeps copies, not second names, once the output was found changed in place after a build (a post-processing step)', async () => {
    const rewriteInPlace = async () => {
      for (const file of (await listFiles(site.file('dist'))).filter((name) => name.endsWith('.html'))) {
        writeFileSync(
          site.file(`dist/${file}`),
          readFileSync(site.file(`dist/${file}`), 'utf8').replace('</body>', '<!-- post-processed --></body>'),
        );
      }
    };
    const touch = async (text: string) =>
      site.write('content/news/first-post.md', `${await site.read('content/news/first-post.md')}\n${text}\n`);
    await touch('Before post-processing.');
    expect((await site.run(['build'])).code).toBe(0);
    await rewriteInPlace();
    // Nothing else changed: the pages come from their entries, which are the files changed in place.
    const found = await site.run(['build']);
    expect(found.code, found.stderr).toBe(0);
    // Every page is as a build makes it again, none as post-processed.
    for (const file of (await listFiles(site.file('dist'))).filter((name) => name.endsWith('.html')))
      expect(await site.read(`dist/${file}`), file).not.toContain('post-processed');
    // From then on, a page rendered anew has an entry of its own.
    await rewriteInPlace();
    await touch('After the second post-processing.');
    const next = await site.run(['build']);
    expect(next.code, next.stderr).toBe(0);
    const page = 'news/first-post.html';
    expect(await site.read(`dist/${page}`)).toContain('After the second post-processing.');
    const entries = new Map(
      readdirSync(pageHtmlDir(site.file('.cache/ssg'))).map((name) => [
        statSync(path.join(pageHtmlDir(site.file('.cache/ssg')), name)).ino,
        name,
      ]),
    );
    expect(entries.has(statSync(site.file(`dist/${page}`)).ino), page).toBe(false);
    expect([...entries.values()]).toContain(
      `${Buffer.from(outputHash(readFileSync(site.file(`dist/${page}`))), 'base64').toString('hex')}.html`,
    );
  });

  it('shows each kind of edit in the next build: code, template, article body and title, data', async () => {
    await site.write(
      'site/index.tsx',
      (await site.read('site/index.tsx')).replace('<h1>About us</h1>', '<h1>About the team</h1>'),
    );
    await site.write(
      'templates/document.html',
      (await site.read('templates/document.html')).replace('<body>', '<body data-edited="yes">'),
    );
    await site.write(
      'content/news/first-post.md',
      (await site.read('content/news/first-post.md'))
        .replace(/^title: .*$/m, 'title: Renamed post')
        .replace('Some *text*', 'Some *new words*'),
    );
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
    await site.write(
      'site/islands/counter.tsx',
      (await site.read('site/islands/counter.tsx')).replace('Add one', 'Add one more'),
    );
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

/** The fixture with pages handed their articles inside their entries: in an object (a tag's group) and in a list. */
function withNestedEntries(source: string): string {
  const pages = `function TagPage({ entry }: PageProps) {
  const group = entry.group as TagGroup;
  return <ul>{group.articles.map((item) => <li key={item.slug}>{item.title}: <span dangerouslySetInnerHTML={{ __html: item.html }} /></li>)}</ul>;
}

function Picks({ entry }: PageProps) {
  return <ol>{(entry.picks as Article[]).map((item) => <li key={item.slug}>{item.title}: <span dangerouslySetInnerHTML={{ __html: item.html }} /></li>)}</ol>;
}

export default defineSite({`;
  return source
    .replace(
      "import { defineSite, type Article, type PageProps } from 'ssg';",
      "import { defineSite, groupByTag, type Article, type PageProps, type TagGroup } from 'ssg';",
    )
    .replace('export default defineSite({', pages)
    .replace(
      "    { path: '/404',",
      `    { path: '/tag/:tag', page: TagPage, head: () => ({ title: 'Tag' }), entries: ({ articles }) => groupByTag(articles).map((group) => ({ params: { tag: group.slug }, props: { group } })) },
    { path: '/picks/:n', page: Picks, head: () => ({ title: 'Picks' }), entries: ({ articles }) => [{ params: { n: '1' }, props: { picks: articles.slice(0, 2) } }] },
    { path: '/404',`,
    );
}

describe('pages handed articles inside their entries', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
    await site.write('site/index.tsx', withNestedEntries(await site.read('site/index.tsx')));
  });
  afterAll(() => site.dispose());

  it('show the edits of those articles in the next build (not a page kept from the last)', async () => {
    const first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
    expect(await site.read('dist/tag/one.html')).toMatch(/First post(<!-- -->)?: <span><h1[^>]*>Hello/);
    expect(await site.read('dist/picks/1.html')).toMatch(/First post(<!-- -->)?: <span><h1[^>]*>Hello/);
    const post = await site.read('content/news/first-post.md');
    await site.write(
      'content/news/first-post.md',
      post.replace('title: First post', 'title: Renamed post').replace('# Hello', '# Greetings'),
    );
    const second = await site.run(['build']);
    expect(second.code, second.stderr).toBe(0);
    for (const page of ['dist/tag/one.html', 'dist/tag/two.html', 'dist/picks/1.html']) {
      expect(await site.read(page), page).toMatch(/Renamed post(<!-- -->)?: <span><h1[^>]*>Greetings/);
    }
  });
});

describe('the page cache', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-pages-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const article = (slug: string, title: string): Article => ({
    collection: 'news',
    slug,
    title,
    date: '2025-01-01',
    excerpt: '',
    excerptHtml: '',
    markdown: `# ${title}`,
    html: `<h1>${title}</h1>`,
    data: { title },
    draft: false,
    file: `content/news/${slug}.md`,
    headings: [],
    readingTime: 0,
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
  const page = {
    html: '<p>page</p>',
    hash: outputHash('<p>page</p>'),
    islands: [],
    links: { path: '/', links: [], ids: new Set<string>() },
    measures: { htmlBytes: 11, firstPaintScripts: [] },
  };

  /** Stores two pages: one that read article a and `site`, one that read the list. */
  async function store(over?: Partial<PageCacheInputs>) {
    const cache = openPageCache(inputs(over));
    const own = emptyReads();
    own.articleFields.set('content/news/a.md', new Set(['title']));
    own.dataKeys.add('site');
    cache.set('news/a/index.html', 'entry a', page, own);
    const list = emptyReads();
    list.articleList = true;
    list.articleFields.set('content/news/a.md', new Set(['title', 'slug']));
    list.articleFields.set('content/news/b.md', new Set(['title', 'slug']));
    cache.set('news/index.html', 'entry list', page, list);
    const body = emptyReads();
    body.articleFields.set('content/news/b.md', new Set(['html']));
    cache.set('news/b/index.html', 'entry b', page, body);
    await cache.save();
  }

  it('gives a page back while nothing it read changed, and only then', async () => {
    await store();
    // Another article and another data file changed: the article page is still good, the list is not.
    const other = openPageCache(
      inputs({ articles: [article('a', 'A'), article('b', 'B2')], data: { site: { name: 'One' }, team: ['y'] } }),
    );
    expect(other.get('news/a/index.html', 'entry a')).toMatchObject({ html: page.html });
    expect(other.get('news/index.html', 'entry list')).toBeUndefined();

    await store();
    expect(
      openPageCache(inputs({ articles: [article('a', 'A2'), article('b', 'B')] })).get('news/a/index.html', 'entry a'),
    ).toBeUndefined();
    // Only b's body changed (its content key): what showed its title stays, what showed its HTML does not.
    await store();
    const bodyEdited = [article('a', 'A'), { ...article('b', 'B'), markdown: '# B\n\nMore.' }];
    expect(openPageCache(inputs({ articles: bodyEdited })).get('news/index.html', 'entry list')).toMatchObject({
      html: page.html,
    });
    expect(openPageCache(inputs({ articles: bodyEdited })).get('news/b/index.html', 'entry b')).toBeUndefined();
    // The list's order or members changed: a page that read the list is made again.
    await store();
    expect(
      openPageCache(inputs({ articles: [article('b', 'B'), article('a', 'A')] })).get('news/index.html', 'entry list'),
    ).toBeUndefined();
    expect(
      openPageCache(inputs({ articles: [article('a', 'A')] })).get('news/index.html', 'entry list'),
    ).toBeUndefined();
    // Its links come back with it, so the link check does not parse it again.
    await store();
    expect(openPageCache(inputs()).get('news/a/index.html', 'entry a')?.links).toMatchObject({
      links: [],
      ids: new Set(),
    });
    await store();
    expect(
      openPageCache(inputs({ data: { site: { name: 'Two' }, team: ['x'] } })).get('news/a/index.html', 'entry a'),
    ).toBeUndefined();
    await store();
    expect(openPageCache(inputs()).get('news/a/index.html', 'another entry')).toBeUndefined();
  });

  it('gives back the links of a page rendered again to the same bytes, and keeps it with what it read now', async () => {
    const linked = {
      ...page,
      links: {
        path: '/news',
        links: [{ written: '/news/a#top', path: '/news/a', fragment: 'top' }],
        ids: new Set(['list']),
      },
    };
    const first = openPageCache(inputs());
    const list = emptyReads();
    list.articleList = true;
    first.set('news/index.html', 'entry list', linked, list);
    await first.save();
    // A new article: the list page is rendered again (it read the list) ...
    const grown = inputs({ articles: [article('c', 'C'), article('a', 'A'), article('b', 'B')] });
    const second = openPageCache(grown);
    expect(second.get('news/index.html', 'entry list', '/news')).toBeUndefined();
    // ... other bytes, another entry key: nothing known.
    expect(second.sameAs('news/index.html', 'entry list', outputHash('<p>other</p>'), '/news')).toBeUndefined();
    expect(second.sameAs('news/index.html', 'another entry', page.hash, '/news')).toBeUndefined();
    expect(second.sameAs('news/other.html', 'entry list', page.hash, '/news')).toBeUndefined();
    // The same bytes: its links and ids as taken out before, trusted as a kept page's are.
    const same = second.sameAs('news/index.html', 'entry list', page.hash, '/news')!;
    expect(same.links).toMatchObject({
      path: '/news',
      links: linked.links.links,
      ids: new Set(['list']),
      passed: { targets: ['/news/a'] },
    });
    second.set('news/index.html', 'entry list', { ...page, links: same.links! }, list);
    await second.save();
    // Kept with the list as it is now: the next build takes it unrendered, links and all.
    const third = openPageCache(grown).get('news/index.html', 'entry list', '/news');
    expect(third).toMatchObject({
      html: page.html,
      links: { links: linked.links.links, passed: { targets: ['/news/a'] } },
    });
    expect(third!.links!.ids).toEqual(new Set(['list']));
  });

  it("keeps a tag's page while its own group is as it was, whatever else comes into the list", async () => {
    const tagged = (slug: string, tags: string[]) => ({ ...article(slug, slug.toUpperCase()), tags });
    const before = [tagged('a', ['Odd']), tagged('b', ['Even'])];
    const cache = openPageCache(inputs({ articles: before }));
    const reads = emptyReads();
    reads.tagGroups.add('odd');
    reads.articleFields.set('content/news/a.md', new Set(['title', 'slug']));
    cache.set('news/tags/odd.html', 'entry odd', page, reads);
    await cache.save();
    const keptWith = (articles: Article[]) =>
      openPageCache(inputs({ articles })).get('news/tags/odd.html', 'entry odd');
    // A new article of another tag, another article's tags changed: the page is kept.
    expect(keptWith([tagged('c', ['Even']), ...before])).toMatchObject({ html: page.html });
    expect(keptWith([before[0]!, tagged('b', ['Even', 'Other'])])).toMatchObject({ html: page.html });
    // A new article of its tag, its article untagged, its tag spelled anew: made again.
    expect(keptWith([tagged('c', ['odd']), ...before])).toBeUndefined();
    expect(keptWith([tagged('a', []), before[1]!])).toBeUndefined();
    expect(keptWith([tagged('a', ['ODD']), before[1]!])).toBeUndefined();
  });

  it('keeps nothing across a change of code or options, or into another day', async () => {
    await store();
    expect(openPageCache(inputs({ shared: ['code v2'] })).get('news/a/index.html', 'entry a')).toBeUndefined();
    await store();
    expect(
      openPageCache(inputs({ now: new Date('2026-11-22T23:59:00Z') })).get('news/a/index.html', 'entry a'),
    ).toMatchObject({ html: page.html });
    expect(
      openPageCache(inputs({ now: new Date('2026-11-23T00:01:00Z') })).get('news/a/index.html', 'entry a'),
    ).toBeUndefined();
  });

  it('keeps nothing across a change of time zone (a page may format a date in it)', async () => {
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      await store();
      expect(openPageCache(inputs()).get('news/a/index.html', 'entry a')).toMatchObject({ html: page.html });
      process.env.TZ = 'Pacific/Kiritimati';
      expect(openPageCache(inputs()).get('news/a/index.html', 'entry a')).toBeUndefined();
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

/** The entry files of each cache of a site, by cache. */
function cacheEntries(site: TempSite): Record<string, string[]> {
  const cache = site.file('.cache/ssg');
  const list = (folder: string, keep: (name: string) => boolean) =>
    existsSync(folder)
      ? readdirSync(folder)
          .filter(keep)
          .map((name) => path.join(folder, name))
      : [];
  return {
    markdown: list(cache, (name) => name === 'markdown.json'),
    markdownHtml: list(markdownHtmlDir(cache), (name) => /^[A-Za-z0-9_-]{43}\.html$/.test(name)),
    pages: list(cache, (name) => name === path.basename(pageCacheFile(cache))),
    pageHtml: list(pageHtmlDir(cache), (name) => /^[0-9a-f]{40}\.html$/.test(name)),
    output: list(cache, (name) => /^output-[0-9a-f]+\.json$/.test(name)),
    unchanged: list(cache, (name) => /^unchanged-[0-9a-f]+\.json$/.test(name)),
    bundles: list(path.join(cache, 'bundles'), (name) => name.endsWith('.bin')),
    compressed: list(path.join(cache, 'compressed'), (name) => /^[0-9a-f]{32}\.(br|gz)$/.test(name)),
  };
}

async function distBytes(site: TempSite): Promise<Map<string, Buffer>> {
  const files = await listFiles(site.file('dist'));
  return new Map(files.map((file) => [file, readFileSync(site.file(`dist/${file}`))]));
}

/** dist/ is byte for byte the reference, and every .br and .gz decompresses to its source. */
async function expectSameSite(site: TempSite, reference: Map<string, Buffer>, label: string): Promise<void> {
  const now = await distBytes(site);
  expect([...now.keys()].sort(), label).toEqual([...reference.keys()].sort());
  for (const [file, bytes] of reference) expect(now.get(file)!.equals(bytes), `${label}: ${file}`).toBe(true);
  let compressed = 0;
  for (const [file, bytes] of now) {
    const source = now.get(file.replace(/\.(br|gz)$/, ''));
    if (file.endsWith('.br')) expect(brotliDecompressSync(bytes).equals(source!), `${label}: ${file}`).toBe(true);
    else if (file.endsWith('.gz')) expect(gunzipSync(bytes).equals(source!), `${label}: ${file}`).toBe(true);
    else continue;
    compressed++;
  }
  expect(compressed).toBeGreaterThan(0);
}

/** Every cache holds intact entries again. */
/** Forgets what the last build was made from, so the next one runs every stage (and reads every cache). */
async function forgetLastBuild(site: TempSite): Promise<void> {
  for (const file of cacheEntries(site).unchanged!) await rm(file, { recursive: true, force: true });
}

/**
 * Every entry is intact. A page's HTML entry is read only when the output folder lacks the page,
 * so one damaged while the output holds its page is left (`withHtml: false`) until it is needed.
 */
function expectRebuilt(site: TempSite, label: string, { withHtml = true } = {}): void {
  for (const [cache, files] of Object.entries(cacheEntries(site))) {
    expect(files.length, `${label}: ${cache}`).toBeGreaterThan(0);
    if (cache === 'pageHtml' && !withHtml) continue;
    for (const file of files) expect(intact(cache, file), `${label}: ${file}`).toBe(true);
  }
}

/** An entry reads back whole: a page's HTML entry is the HTML alone, named by its hash (see keepContentEntry); every other entry is framed. */
function intact(cache: string, file: string): boolean {
  if (cache !== 'pageHtml') return readEntrySync(file) !== undefined;
  return Buffer.from(outputHash(readFileSync(file)), 'base64').toString('hex') === path.basename(file, '.html');
}

/** Without the output folder, pages kept in the cache are written from their HTML entries: damaged ones are rendered again. */
async function expectHtmlMended(site: TempSite, reference: Map<string, Buffer>, label: string): Promise<void> {
  await site.remove('dist');
  await forgetLastBuild(site);
  const result = await site.run(['build']);
  expect(result.code, `${label}, without dist\n${result.stdout}\n${result.stderr}`).toBe(0);
  await expectSameSite(site, reference, `${label}, without dist`);
  // The build that found an entry damaged removed it and rendered its page; the next one keeps it again.
  const again = await site.run(['build']);
  expect(again.code, again.stderr).toBe(0);
  expectRebuilt(site, `${label}, after mending`);
}

describe('damaged cache entries are rebuilt, never shipped', () => {
  let site: TempSite;
  let reference: Map<string, Buffer>;

  beforeAll(async () => {
    site = await copySite(fixture);
    // The first build has no cache: its output is what every later build must make.
    const first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
    reference = await distBytes(site);
    expectRebuilt(site, 'first build');
  }, 60_000);
  afterAll(() => site.dispose());

  async function buildDamaged(damages: Array<[string, Corruption]>, label: string) {
    for (const [file, corruption] of damages) damage(file, corruption);
    let result = await site.run(['build']);
    expect(result.code, `${label}\n${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toContain('Unexpected internal error');
    await expectSameSite(site, reference, label);
    if (result.stdout.includes('inputs unchanged')) {
      // Rightly nothing to do: the record of the last build is intact, and so is the output. The
      // damaged entries are read (and mended) by the next build that runs every stage.
      expect(
        damages.filter(([file]) => cacheEntries(site).unchanged!.includes(file)),
        label,
      ).toEqual([]);
      await forgetLastBuild(site);
      result = await site.run(['build']);
      expect(result.code, `${label}, in full\n${result.stdout}\n${result.stderr}`).toBe(0);
      await expectSameSite(site, reference, `${label}, in full`);
    }
    // A folder with something in it is not the build's to delete: that entry stays unmade.
    if (!damages.some(([, corruption]) => corruption.kind === 'directory' && corruption.withFile))
      expectRebuilt(site, label, { withHtml: false });
    if (damages.some(([, corruption]) => corruption.kind === 'directory')) {
      for (const [file, corruption] of damages)
        if (corruption.kind === 'directory') await rm(file, { recursive: true, force: true });
      // The last build ran in full and kept its record: the next would rightly do nothing, and
      // make none of the entries the folders stood in for.
      await forgetLastBuild(site);
      const again = await site.run(['build']);
      expect(again.code, again.stderr).toBe(0);
      expectRebuilt(site, `${label}, then without the folders`, { withHtml: false });
    }
    if (damages.some(([file]) => path.dirname(file).endsWith('pages'))) await expectHtmlMended(site, reference, label);
    return result;
  }

  it('each kind of damage, to every entry of every cache at once', async () => {
    for (const kind of corruptionKinds) {
      const entries = Object.values(cacheEntries(site)).flat();
      const picked = fc.sample(corruptions([kind]), entries.length);
      const result = await buildDamaged(
        entries.map((file, index) => [file, picked[index]!]),
        kind,
      );
      // Without an intact Markdown cache both articles are converted again.
      expect(result.stdout, kind).toContain('2 converted, 0 from cache');
    }
  }, 120_000);

  it('random damage to random entries (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.infiniteStream(fc.option(corruptions(), { freq: 2 })), async (stream) => {
        const entries = Object.values(cacheEntries(site)).flat();
        const damages = entries.flatMap((file): Array<[string, Corruption]> => {
          const corruption = stream.next().value as Corruption | null;
          return corruption ? [[file, corruption]] : [];
        });
        await buildDamaged(
          damages,
          JSON.stringify(damages.map(([file, corruption]) => [path.basename(file), corruption.kind])),
        );
      }),
      { numRuns: 3 },
    );
  }, 120_000);

  it('the Markdown or page cache deleted after a build: the next build is no "nothing changed" and writes it again', async () => {
    for (const cache of ['markdown', 'pages'] as const) {
      const ready = await site.run(['build']);
      expect(ready.code, ready.stderr).toBe(0);
      for (const file of cacheEntries(site)[cache]!) await rm(file, { force: true });
      const again = await site.run(['build']);
      expect(again.code, again.stderr).toBe(0);
      expect(cacheEntries(site)[cache], cache).toHaveLength(1);
      await expectSameSite(site, reference, `${cache} deleted`);
    }
  }, 60_000);

  it('entries deleted while a build runs: the build succeeds and the next one restores them', async () => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'ssg.js'), 'build'], {
      cwd: site.dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: 'ignore',
    });
    let code: number | null | undefined;
    const exited = new Promise<void>((resolve) => child.on('exit', (status) => ((code = status), resolve())));
    // Bounded: at most 2,000 sweeps, one per event-loop turn, until the build ends.
    for (let sweep = 0; code === undefined && sweep < 2000; sweep++) {
      for (const file of Object.values(cacheEntries(site)).flat()) await rm(file, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await exited;
    expect(code).toBe(0);
    await expectSameSite(site, reference, 'deleted mid-way');
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    await expectSameSite(site, reference, 'after deletion');
    expectRebuilt(site, 'after deletion');
  }, 60_000);

  it('a file where the cache folder goes: a clear error, and nothing lost', async () => {
    await site.remove('.cache');
    writeFileSync(site.file('.cache'), 'not a folder');
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      '[CacheUnusable] A cache file cannot be used\n  .cache/ssg: A file stands where the build keeps its cache folder',
    );
    expect(result.stdout + result.stderr).not.toContain('Unexpected internal error');
    expect(readFileSync(site.file('.cache'), 'utf8')).toBe('not a folder');
    await expectSameSite(site, reference, 'after the failed build');
    await site.remove('.cache');
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    expectRebuilt(site, 'once the file is gone');
  }, 60_000);

  it('HTML made by other versions of the Markdown packages is not reused', async () => {
    const file = site.file('.cache/ssg/markdown.json');
    const rewrite = (change: (stored: StoredMarkdown) => void) => {
      const stored = JSON.parse(readEntrySync(file)!.toString('utf8')) as StoredMarkdown;
      change(stored);
      writeEntrySync(file, Buffer.from(JSON.stringify(stored)));
    };
    // Each article's HTML is an entry of its own, trusted by the size, time and inode noted for it.
    const markStale = (stored: StoredMarkdown) => {
      for (const [key, parts] of Object.entries(stored.entries)) {
        const entry = path.join(markdownHtmlDir(site.file('.cache/ssg')), `${key}.html`);
        writeEntrySync(entry, Buffer.from('<p>STALE HTML</p>'));
        const stat = statSync(entry);
        parts.entry = [stat.size, stat.mtimeMs];
      }
    };
    // Control: with the versions as installed, the stored HTML is used (so the check below can fail).
    // The page cache goes too: its pages were rendered from the HTML. (A real upgrade changes the
    // content keys, and with them the pages' signatures; the recorded version alone does not.)
    rewrite(markStale);
    await site.remove('.cache/ssg/pages.bin');
    await forgetLastBuild(site);
    const used = await site.run(['build']);
    expect(used.stdout).toContain('0 converted, 2 from cache');
    expect(await site.read('dist/news/first-post.html')).toContain('STALE HTML');

    rewrite((stored) => {
      markStale(stored);
      expect(stored.versions['remark-parse']).toMatch(/^\d+\.\d+\.\d+/);
      expect(stored.versions['micromark']).toMatch(/^\d+\.\d+\.\d+/); // a dependency of a dependency
      stored.versions['micromark'] = '0.0.1';
    });
    await site.remove('.cache/ssg/pages.bin');
    await forgetLastBuild(site);
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('2 converted, 0 from cache');
    await expectSameSite(site, reference, 'after a version change');
  }, 60_000);

  it("an article's HTML entry changed keeping its size and times: caught when read, the build runs once more and ships the right page", async () => {
    await site.remove('dist');
    await site.remove('.cache');
    const first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
    const [entry] = cacheEntries(site).markdownHtml!;
    const bytes = readFileSync(entry!);
    bytes[bytes.length - 1] ^= 1; // one bit of the HTML, past the header
    writeFileSync(entry!, bytes);
    // As if its size and times were kept (the file system's times are too fine to set back exactly).
    const index = site.file('.cache/ssg/markdown.json');
    const stored = JSON.parse(readEntrySync(index)!.toString('utf8')) as StoredMarkdown;
    const stat = statSync(entry!);
    stored.entries[path.basename(entry!, '.html')]!.entry = [stat.size, stat.mtimeMs];
    writeEntrySync(index, Buffer.from(JSON.stringify(stored)));
    // Without the output folder and the page cache the pages showing it are rendered, and read the entry.
    await site.remove('dist');
    await site.remove('.cache/ssg/pages.bin');
    await forgetLastBuild(site);
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('Unexpected internal error');
    expect(result.stdout).toContain('1 converted, 1 from cache');
    await expectSameSite(site, reference, 'after the changed entry');
    expectRebuilt(site, 'after the changed entry');
  }, 60_000);

  it('a Markdown cache restored as CI restores it (new inodes, the same times) is used, not converted again', async () => {
    const ready = await site.run(['build']);
    expect(ready.code, ready.stderr).toBe(0);
    const saved = await mkdtemp(path.join(tmpdir(), 'ssg-cache-copy-'));
    try {
      cpSync(site.file('.cache'), path.join(saved, '.cache'), { recursive: true, preserveTimestamps: true });
      await site.remove('.cache');
      cpSync(path.join(saved, '.cache'), site.file('.cache'), { recursive: true, preserveTimestamps: true });
    } finally {
      await rm(saved, { recursive: true, force: true });
    }
    await site.remove('dist');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('0 converted, 2 from cache');
    await expectSameSite(site, reference, 'restored cache');
  }, 60_000);

  it('removes what the last build did not use: deleted articles, old compressed files, temporary files of dead writers', async () => {
    const cache = site.file('.cache/ssg');
    const longAgo = new Date(Date.now() - 3_600_000);
    const unusedCompressed = path.join(cache, 'compressed', `${'0'.repeat(32)}.br`);
    writeEntrySync(unusedCompressed, Buffer.from('from a build long ago'));
    utimesSync(unusedCompressed, longAgo, longAgo);
    const notOurs = path.join(cache, 'compressed', 'notes.txt');
    writeFileSync(notOurs, 'someone put this here');
    const deadTemporary = path.join(cache, `pages.bin.tmp-${2 ** 22 + 99}-deadbeef`);
    writeFileSync(deadTemporary, 'half written');
    // And in the folders of entries: a Markdown conversion's HTML, a page's, a drawn file's.
    const deadInFolders = ['markdown', 'pages', 'generated'].map((folder) => {
      mkdirSync(path.join(cache, folder), { recursive: true });
      const file = path.join(cache, folder, `${'a'.repeat(40)}.html.tmp-${2 ** 22 + 98}-deadbeef`);
      writeFileSync(file, 'half written');
      return file;
    });

    await site.remove('content/news/2024/second-post.md');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);

    const markdown = JSON.parse(readEntrySync(path.join(cache, 'markdown.json'))!.toString('utf8')) as StoredMarkdown;
    expect(Object.values(markdown.entries).map((parts) => parts.data.title)).toEqual([expect.stringMatching(/first/i)]);
    const pages = deserialize(readEntrySync(pageCacheFile(cache))!) as { pages: Record<string, unknown> };
    expect(Object.keys(pages.pages).some((page) => page.includes('second-post'))).toBe(false);
    expect(Object.keys(pages.pages).some((page) => page.includes('first-post'))).toBe(true);
    // Each kept page's HTML has its entry; the removed page's went with it.
    const htmlEntries = readdirSync(pageHtmlDir(cache));
    const hashes = new Set(
      Object.values(pages.pages).map(
        (page) => `${Buffer.from((page as { hash: string }).hash, 'base64').toString('hex')}.html`,
      ),
    );
    expect(new Set(htmlEntries)).toEqual(hashes);
    expect(existsSync(unusedCompressed)).toBe(false);
    expect(existsSync(deadTemporary)).toBe(false);
    expect(deadInFolders.filter((file) => existsSync(file))).toEqual([]);
    expect(readFileSync(notOurs, 'utf8')).toBe('someone put this here');
    expectRebuilt(site, 'after pruning');
  }, 60_000);
});
