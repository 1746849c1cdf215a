import { readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntrySync } from '../src/cache/store.ts';
import { parseHeadersFile, headersFor } from '../src/server/headers-file.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { buildRealSite } from './helpers/site.ts';

/** Every file of the built index, by path. */
async function indexFiles(dist: string): Promise<Map<string, Buffer>> {
  const folder = path.join(dist, 'pagefind');
  const names = (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const files = await Promise.all(
    names.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(folder, file), await readFile(file)] as const;
    }),
  );
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Each page in the built index, as Pagefind stores it: one gzipped fragment a page. */
async function indexedPages(dist: string): Promise<Array<{ url: string; content: string }>> {
  const folder = path.join(dist, 'pagefind', 'fragment');
  const names = await readdir(folder);
  return Promise.all(
    names.map(async (name) => {
      const text = gunzipSync(await readFile(path.join(folder, name))).toString('utf8');
      return JSON.parse(text.replace(/^pagefind_dcd/, '')) as { url: string; content: string };
    }),
  );
}

const article = (title: string, extra: string) =>
  `---\ntitle: ${title}\ndate: "2025-02-01"\nexcerpt: About ${title}.\n${extra}---\n${title} is a word here.\n`;

describe('the search index of the real site', () => {
  let site: TempSite;

  beforeAll(async () => {
    site = await buildRealSite(async (copy) => {
      await copy.write(
        'content/news/quokka-upgrade.md',
        `${article('Quokka upgrade', '')}\n## Keys and rotation\n\nMore words.\n`,
      );
      await copy.write('content/news/wombat-draft.md', article('Wombat draft', 'draft: true\n'));
      await copy.write(
        'content/news/numbat-later.md',
        article('Numbat later', '').replace('date: "2025-02-01"', 'date: "2999-01-01"'),
      );
    });
  });
  afterAll(() => site?.dispose());

  it('holds the articles, without their header, and neither drafts, future posts nor other pages', async () => {
    const pages = await indexedPages(site.file('dist'));
    const urls = pages.map((page) => page.url).sort();
    // The bundled article's German translation too, in the German index.
    expect(urls).toEqual(['/de/news/hello-world', '/news/hello-world', '/news/quokka-upgrade']);
    const quokka = pages.find((page) => page.url === '/news/quokka-upgrade')!;
    expect(quokka.content).toContain('Quokka upgrade is a word here.');
    // A heading's text, without the `#` that links to it (it would show in the results' excerpts).
    expect(quokka.content).toContain('Keys and rotation');
    expect(quokka.content).not.toContain('#');
    // The layout (navigation, footer) and the article's date line are outside data-pagefind-body or ignored.
    expect(quokka.content).not.toMatch(/Networks|Legal notice|min read/);
    for (const page of pages) expect(page.content).not.toMatch(/Wombat|Numbat/);
  });

  it('after an edit, indexes the pages carried over and the one made again, and leaves no folder of pages', async () => {
    const copy = await buildRealSite((fresh) =>
      fresh.write('content/news/quokka-upgrade.md', article('Quokka upgrade', '')),
    );
    try {
      const file = 'content/news/hello-world.md';
      await copy.write(file, (await copy.read(file)).replace(/\n*$/, '\n\nA capybara was edited in.\n'));
      const result = await copy.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      const pages = await indexedPages(copy.file('dist'));
      expect(pages.map((page) => page.url).sort()).toEqual([
        '/de/news/hello-world',
        '/news/hello-world',
        '/news/quokka-upgrade',
      ]);
      expect(pages.find((page) => page.url === '/news/hello-world')!.content).toContain('capybara');
      expect(pages.find((page) => page.url === '/news/quokka-upgrade')!.content).toContain(
        'Quokka upgrade is a word here.',
      );
      expect((await readdir(copy.file('.cache/ssg'))).filter((name) => name.startsWith('search-pages-'))).toEqual([]);
    } finally {
      await copy.dispose();
    }
  });

  it('after an edit, a removed article and a spoilt list of kept pages, writes the index a build from nothing writes', async () => {
    const copy = await buildRealSite((fresh) =>
      fresh.write('content/news/quokka-upgrade.md', article('Quokka upgrade', '')),
    );
    /** The index's files, and the same site built again from nothing (no cache, no output) in a copy beside it. */
    const indexAfter = async (change: () => Promise<void>) => {
      await change();
      const result = await copy.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      // Its other caches kept (the cards are not drawn again), the search's own and the record of
      // the last build's inputs left out: the index is made from nothing.
      const fresh = await copySite(copy.dir, ['dist', 'node_modules']);
      try {
        for (const name of await readdir(fresh.file('.cache/ssg')))
          if (/^(search-|unchanged-)/.test(name)) await rm(fresh.file(`.cache/ssg/${name}`), { recursive: true });
        await symlink(path.join(repoRoot, 'node_modules'), fresh.file('node_modules'));
        const again = await fresh.run(['build']);
        expect(again.code, again.stderr).toBe(0);
        const [kept, made] = await Promise.all([indexFiles(copy.file('dist')), indexFiles(fresh.file('dist'))]);
        expect(kept).toEqual(made);
        return kept;
      } finally {
        await fresh.dispose();
      }
    };
    try {
      const hello = 'content/news/hello-world.md';
      // The one edited page is handed over again to the index of the pages the last build kept.
      const edited = await indexAfter(async () =>
        copy.write(hello, (await copy.read(hello)).replace(/\n*$/, '\n\nA capybara was edited in.\n')),
      );
      expect([...edited.values()].some((bytes) => gunzipSync(bytes).toString('utf8').includes('capybara'))).toBe(true);
      const listed = () => JSON.parse(readFileSync(copy.file('.cache/ssg/search-pages/.pages.json'), 'utf8'));
      expect(Object.keys(listed().pages).sort()).toEqual([
        'de/news/hello-world',
        'news/hello-world',
        'news/quokka-upgrade',
      ]);
      await indexAfter(() => rm(copy.file('content/news/quokka-upgrade.md')));
      expect(Object.keys(listed().pages).sort()).toEqual(['de/news/hello-world', 'news/hello-world']);
      await indexAfter(async () => {
        writeFileSync(
          copy.file('.cache/ssg/search-pages/.pages.json'),
          '{"version": 1, "pages": {"news/hello-world": [',
        );
        await copy.write(hello, (await copy.read(hello)).replace('capybara', 'tapir'));
      });
      // A page's file gone from the kept folder, another's cut short: each is written again.
      await indexAfter(async () => {
        await rm(copy.file('.cache/ssg/search-pages/news/hello-world'));
        await copy.write('content/news/quokka-upgrade.md', article('Quokka upgrade', ''));
      });
      writeFileSync(copy.file('.cache/ssg/search-pages/news/quokka-upgrade'), '<p>cut');
      await indexAfter(async () => copy.write(hello, (await copy.read(hello)).replace('tapir', 'okapi')));
    } finally {
      await copy.dispose();
    }
  }, 300_000);

  it("writes Pagefind's API and worker precompressed, and none of its ready-made UIs", async () => {
    const files = await readdir(site.file('dist/pagefind'));
    expect(files).toEqual(
      expect.arrayContaining(['pagefind.js', 'pagefind.js.br', 'pagefind.js.gz', 'pagefind-worker.js']),
    );
    expect(files.filter((name) => /ui|playground|highlight/.test(name))).toEqual([]);
  });

  it("keeps the index in the cache under the installed Pagefind's version, which another would not read", async () => {
    const installed = JSON.parse(await readFile('node_modules/pagefind/package.json', 'utf8')) as { version: string };
    const kept = JSON.parse(readEntrySync(site.file('.cache/ssg/search-index'))!.toString('utf8')) as {
      version: string;
    };
    expect(kept.version).toBe(installed.version);
  });

  it("gives 'wasm-unsafe-eval' to the news list and the index only", async () => {
    const rules = parseHeadersFile(await site.read('dist/_headers'));
    const policy = (urlPath: string) => headersFor(rules, urlPath)['Content-Security-Policy']!;
    expect(policy('/news')).toContain("'wasm-unsafe-eval'");
    expect(policy('/pagefind/pagefind-worker.js')).toContain("'wasm-unsafe-eval'");
    for (const urlPath of ['/', '/about', '/news/hello-world', '/news/page/2', '/contact', '/nope'])
      expect(policy(urlPath)).toBe(policy('/'));
    expect(policy('/')).not.toContain('wasm-unsafe-eval');
    // Only the script and connect sources differ.
    const others = (text: string) => text.split('; ').filter((part) => !/^(script|connect)-src/.test(part));
    expect(others(policy('/news'))).toEqual(others(policy('/')));
  });
});
