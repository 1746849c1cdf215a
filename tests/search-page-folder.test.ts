// The folder of pages Pagefind indexes: each page where Pagefind gives it its own URL, the rest
// handed over alone, and nothing left behind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
