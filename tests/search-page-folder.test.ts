// The folder of pages Pagefind indexes: each page where Pagefind gives it its own URL, the rest
// handed over alone, and nothing left behind.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { close, createIndex } from 'pagefind';
import { afterAll, describe, expect, it } from 'vitest';
import { fileForUrl, folderUrls, pageFolder } from '../src/search/page-folder.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'ssg-page-folder-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A page whose one paragraph names its URL, so a fragment tells which page it is. */
const page = (url: string) => `<html lang="en"><body><main><h1>Page</h1><p>Page at ${url}</p></main></body></html>`;

/** The URL of each page in Pagefind's files, as its fragments hold them. */
function urlsOf(files: ReadonlyArray<{ path: string; content: Uint8Array }>): string[] {
  return files
    .filter((file) => file.path.startsWith('fragment/'))
    .map(
      (file) =>
        (
          JSON.parse(
            gunzipSync(file.content)
              .toString('utf8')
              .replace(/^pagefind_dcd/, ''),
          ) as { url: string }
        ).url,
    )
    .sort();
}

const segment = fc.oneof(
  fc.constantFrom('news', 'a', 'index.html', 'x.y', '.hidden', 'ü', 'a b', '%41', '~t', '-'),
  fc.stringMatching(/^[a-z0-9-]{1,6}$/),
);
const urlArb = fc.array(segment, { minLength: 0, maxLength: 3 }).map((segments) => `/${segments.join('/')}`);

describe('where a page goes in the folder Pagefind reads', () => {
  it('gives each page a file whose path is its URL, none a folder of another, or hands it over alone (fast-check)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(urlArb, { maxLength: 12 }), (urls) => {
        const folders = folderUrls(urls);
        const files = urls.flatMap((url) => {
          const file = fileForUrl(url, folders);
          return file === undefined ? [] : [[url, file] as const];
        });
        for (const [url, file] of files) {
          expect(`/${file}`).toBe(url);
          expect(file.split('/').at(-1)).not.toBe('index.html');
        }
        const names = files.map(([, file]) => file);
        expect(new Set(names).size).toBe(names.length);
        for (const a of names) for (const b of names) expect(b.startsWith(`${a}/`)).toBe(false);
        // Handed over alone: the home page, a URL with a segment Pagefind could change, one that is a folder of another.
        for (const url of urls.filter((one) => !files.some(([other]) => other === one)))
          expect(
            url === '/' ||
              folders.has(`${url}/`) ||
              !/^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/.test(url) ||
              url.endsWith('/index.html'),
          ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('makes an index whose pages have their own URLs, the folder removed after', async () => {
    const urls = ['/', '/news', '/news/first', '/news/second', '/about', '/a b', '/docs/index.html', '/x.y'];
    const folder = pageFolder(scratch, urls);
    for (const url of urls) folder.put(url, page(url));
    // A page put again replaces its first copy.
    folder.put('/about', page('/about, again'));
    const { index } = await createIndex({});
    try {
      const count = await folder.addTo(index!, (call) => call);
      expect(count).toBe(urls.length);
      const made = await index!.getFiles();
      expect(urlsOf(made.files)).toEqual([...urls].sort());
      const about = made.files
        .filter((file) => file.path.startsWith('fragment/'))
        .map((file) => gunzipSync(file.content).toString('utf8'))
        .find((text) => text.includes('"url":"/about"'))!;
      expect(about).toContain('again');
    } finally {
      await close();
      await folder.remove();
    }
    expect(readdirSync(scratch).filter((name) => name.startsWith('search-pages-'))).toEqual([]);
  });

  it('fails naming what went wrong when a page cannot be written, and leaves nothing', async () => {
    const blocked = path.join(scratch, 'blocked');
    writeFileSync(blocked, 'a file where the cache folder should be');
    const folder = pageFolder(blocked, ['/news/x']);
    folder.put('/news/x', page('/news/x'));
    const { index } = await createIndex({});
    try {
      await expect(folder.addTo(index!, (call) => call)).rejects.toThrow(/ENOTDIR|EEXIST/);
    } finally {
      await close();
      await folder.remove();
    }
    expect(existsSync(blocked)).toBe(true);
  });

  it('removes a folder a killed build left, and not one of a build still running', async () => {
    const dead = path.join(scratch, 'search-pages-999999-0');
    const alive = path.join(scratch, `search-pages-${process.ppid}-0`);
    mkdirSync(path.join(dead, 'news'), { recursive: true });
    mkdirSync(alive, { recursive: true });
    const folder = pageFolder(scratch, ['/news/x']);
    folder.put('/news/x', page('/news/x'));
    await folder.remove();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    rmSync(alive, { recursive: true, force: true });
  });
});

describe('the folder a build keeps for the next', () => {
  const kept = path.join(scratch, 'kept');
  const holds = () => path.join(kept, 'search-pages', '.pages.json');
  const hashOf = (content: string) => createHash('sha1').update(content).digest('hex');
  /** One build's part: the folder claimed, every page put whose hash it does not hold, the rest dropped, kept. */
  async function build(pages: ReadonlyMap<string, string>) {
    const folder = pageFolder(kept, pages.keys(), true);
    const claimed = { count: folder.heldCount(), urls: [...pages.keys()].filter((url) => folder.heldBefore(url)) };
    expect(existsSync(path.join(kept, 'search-pages'))).toBe(false);
    const hashes = new Map([...pages].map(([url, content]) => [url, hashOf(content)]));
    for (const [url, content] of pages) if (folder.heldBefore(url) !== hashes.get(url)) folder.put(url, content);
    await folder.keep(hashes);
    return claimed;
  }

  it('holds every page of the last build as it was, whatever came before (fast-check)', async () => {
    const name = fc.constantFrom('/news/a', '/news/b', '/news/c', '/about', '/news', '/');
    const pagesArb = fc.uniqueArray(fc.tuple(name, fc.constantFrom('one', 'two', 'three')), {
      selector: ([url]) => url,
      maxLength: 6,
    });
    const step = fc.record({ pages: pagesArb, spoil: fc.constantFrom(false, false, false, true) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        rmSync(kept, { recursive: true, force: true });
        mkdirSync(kept);
        let last = new Map<string, string>();
        for (const { pages, spoil } of steps) {
          // A folder whose list of pages is spoilt (a disk that filled, a hand that edited it) is not used.
          if (spoil && existsSync(holds())) writeFileSync(holds(), '{"version": 1, "pages": ');
          const now = new Map(pages.map(([url, text]) => [url, page(`${url} ${text}`)]));
          const claimed = await build(now);
          if (spoil) expect(claimed.count).toBe(0);
          else {
            // It holds what the last build put in the folder and this one puts there too.
            const inBoth = (url: string) =>
              last.has(url) &&
              fileForUrl(url, folderUrls(last.keys())) !== undefined &&
              fileForUrl(url, folderUrls(now.keys())) !== undefined;
            expect(claimed.urls.sort()).toEqual([...now.keys()].filter(inBoth).sort());
          }
          last = now;
          // It holds each page of this build that goes in the folder, with its own text, and nothing else.
          const inFolder = [...now].filter(([url]) => fileForUrl(url, folderUrls(now.keys())));
          const listed = JSON.parse(readFileSync(holds(), 'utf8')) as { pages: Record<string, [string, number]> };
          expect(Object.keys(listed.pages).sort()).toEqual(inFolder.map(([url]) => url.slice(1)).sort());
          for (const [url, content] of inFolder) {
            expect(readFileSync(path.join(kept, 'search-pages', url.slice(1)), 'utf8')).toBe(content);
            expect(listed.pages[url.slice(1)]![0]).toBe(hashOf(content));
          }
          const files = readdirSync(path.join(kept, 'search-pages'), { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => path.relative(path.join(kept, 'search-pages'), path.join(entry.parentPath, entry.name)));
          expect(files.sort()).toEqual(['.pages.json', ...inFolder.map(([url]) => url.slice(1))].sort());
        }
      }),
      { numRuns: 40 },
    );
  });

  it('hands Pagefind the kept pages before this run puts its own, then the changed ones again', async () => {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept);
    const urls = ['/news/a', '/news/b', '/news'];
    await build(new Map(urls.map((url) => [url, page(url)])));
    const folder = pageFolder(kept, urls, true);
    const { index } = await createIndex({});
    try {
      expect(await folder.addBefore(index!)).toBe(2);
      await folder.put('/news/b', page('/news/b, changed'));
      await folder.put('/news', page('/news'));
      await folder.addAgain(index!, ['news/b'], (call) => call);
      expect(await folder.addApart(index!, (call) => call)).toBe(1);
      const made = await index!.getFiles();
      expect(urlsOf(made.files)).toEqual([...urls].sort());
      const texts = made.files
        .filter((file) => file.path.startsWith('fragment/'))
        .map((file) => gunzipSync(file.content).toString('utf8'));
      expect(texts.filter((text) => text.includes('"url":"/news/b"'))).toEqual([expect.stringContaining('changed')]);
    } finally {
      await close();
      await folder.remove();
    }
  });

  it('holds only the files it lists, of the size it lists: strays, cut files and folders left empty go', async () => {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept);
    await build(new Map(['/news/a', '/news/b', '/docs/c'].map((url) => [url, page(url)])));
    const folder = path.join(kept, 'search-pages');
    writeFileSync(path.join(folder, 'news', 'b'), 'cut');
    writeFileSync(path.join(folder, 'news', '.w7'), 'left by a failed write');
    writeFileSync(path.join(folder, 'stray'), 'not listed');
    const claimed = pageFolder(kept, ['/news/a', '/news/b', '/docs'], true);
    try {
      expect([claimed.heldBefore('/news/a'), claimed.heldBefore('/news/b')]).toEqual([
        hashOf(page('/news/a')),
        undefined,
      ]);
      expect(claimed.heldCount()).toBe(1);
      const dir = readdirSync(kept).find((name) => name.startsWith('search-pages-'))!;
      const left = readdirSync(path.join(kept, dir), { recursive: true }).map(String).sort();
      expect(left).toEqual(['news', 'news/a']);
    } finally {
      await claimed.remove();
    }
  });

  it('leaves the folder of a build that kept its own first, and removes its own', async () => {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept);
    const first = pageFolder(kept, ['/news/a'], true);
    const second = pageFolder(kept, ['/news/a'], true);
    first.put('/news/a', page('first'));
    second.put('/news/a', page('second'));
    await second.keep(new Map([['/news/a', 'second']]));
    await first.keep(new Map([['/news/a', 'first']]));
    expect(readFileSync(path.join(kept, 'search-pages', 'news', 'a'), 'utf8')).toBe(page('second'));
    expect(readdirSync(kept)).toEqual(['search-pages']);
  });
});
