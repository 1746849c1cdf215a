// The pages Pagefind indexes, handed to it as a folder: it parses a folder's pages on every core,
// a page handed over alone on one. Each page is written as the run hands it over, so its HTML is
// not held until the index is made, and Pagefind takes each page's URL from its place in the folder.
import { rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PagefindIndex } from 'pagefind';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { catalogueError } from '../errors/errors.ts';

/** A folder of pages in the cache folder, `search-pages-<pid>-<n>`: removed by its run, or after a kill by a later one. */
const PAGES_FOLDER = /^search-pages-(\d+)-\d+$/;
let made = 0;

/** A segment Pagefind keeps as it is in the URL it gives a page from its path. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/**
 * Where a page goes in the folder so that Pagefind gives it its own URL (it takes the file's path,
 * less a last `index.html`): `/news/x` at `news/x`. None for a URL it would not give so (the home
 * page, a segment it could encode, a last `index.html`), nor for one that is the folder of another
 * (`/news` beside `/news/x`, in `folders`): those are handed over alone, with their URL.
 */
export function fileForUrl(url: string, folders: ReadonlySet<string>): string | undefined {
  const segments = url.split('/').slice(1);
  if (url === '/' || !url.startsWith('/') || !segments.every((segment) => PLAIN_SEGMENT.test(segment)))
    return undefined;
  if (segments.at(-1) === 'index.html' || folders.has(`${url}/`)) return undefined;
  return segments.join('/');
}

/** Every folder of the URLs, with a slash: `/news/` for `/news/x`. */
export function folderUrls(urls: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const url of urls)
    for (let at = url.indexOf('/', 1); at > 0; at = url.indexOf('/', at + 1)) folders.add(url.slice(0, at + 1));
  return folders;
}

/** The folder of one index's pages: `put` each page as it comes (a page put again replaces it), `addTo` once all are. */
export function pageFolder(cacheDir: string, urls: Iterable<string>) {
  const folders = folderUrls(urls);
  const dir = path.join(cacheDir, `search-pages-${process.pid}-${made++}`);
  const parents = new Map<string, Promise<unknown>>();
  const written = new Map<string, Promise<void>>();
  const apart = new Map<string, string>();
  let megabytes = 0;
  let pending = 0;
  /** Writes a page where Pagefind gives it its URL, or keeps it to hand over alone. */
  const put = (url: string, content: string): Promise<void> => {
    megabytes += content.length / 1e6;
    const file = fileForUrl(url, folders);
    if (!file) {
      apart.set(url, content);
      return Promise.resolve();
    }
    if (written.size === 0) {
      removeFilesOfEndedProcesses(cacheDir, PAGES_FOLDER);
      // One a killed process of the same id left (a container's build is often process 1). What
      // cannot be removed fails the writes, reported by addTo.
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // Reported by the writes.
      }
    }
    const parent = path.dirname(path.join(dir, file));
    let ready = parents.get(parent);
    if (!ready) parents.set(parent, (ready = mkdir(parent, { recursive: true })));
    // After the page's earlier copy, if it had one: the last put is what the folder holds.
    const before = written.get(file) ?? ready;
    const writing = before.then(() => writeFile(path.join(dir, file), content));
    pending++;
    writing.catch(() => {}).finally(() => pending--); // a failure is reported by addTo
    written.set(file, writing);
    return writing;
  };
  return {
    /** The pages' text so far, in megabytes (Pagefind's time to answer grows with it). */
    megabytes: () => megabytes,
    /** How many pages are being written: each holds its HTML until it is. */
    pending: () => pending,
    put,
    /** Puts pages read only now, a few at a time: no more of their HTML is held than is being written. */
    async putAll(pages: ReadonlyArray<readonly [string, () => string]>, stop: () => boolean): Promise<void> {
      const queue = [...pages];
      const next = async (): Promise<void> => {
        // A failed write is reported by addTo, with the rest.
        for (let page = queue.shift(); page && !stop(); page = queue.shift())
          await put(page[0], page[1]()).catch(() => {});
      };
      await Promise.all(Array.from({ length: 8 }, next));
    },
    /** Hands Pagefind every page put, the folder's first; the number of pages it indexed. */
    async addTo(index: PagefindIndex, answered: <A>(call: Promise<A>) => Promise<A>): Promise<number> {
      await Promise.all(written.values());
      // The files by name: a pattern such as `**/*` also matches the folders, each of which
      // Pagefind then tries to read as a page, again and again, for half a second. The names hold
      // no character a pattern gives a meaning to (PLAIN_SEGMENT).
      const glob = `{${[...written.keys()].sort().join(',')}}`;
      const added = written.size > 0 ? await answered(index.addDirectory({ path: dir, glob })) : undefined;
      if (added && added.errors.length > 0) throw catalogueError('SearchIndexFailed', [added.errors.join('; ')]);
      const alone = [...apart].sort(([a], [b]) => (a < b ? -1 : 1));
      const each = await Promise.all(alone.map(([url, content]) => answered(index.addHTMLFile({ url, content }))));
      const problem = each.find((answer) => answer.errors.length > 0);
      if (problem) throw catalogueError('SearchIndexFailed', [problem.errors.join('; ')]);
      return (added?.page_count ?? 0) + each.length;
    },
    /** How many pages were put. */
    size: () => written.size + apart.size,
    /** Removes the folder; never fails (what it leaves, a later run removes). */
    async remove(): Promise<void> {
      await Promise.allSettled(written.values());
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    },
  };
}

export type PageFolder = ReturnType<typeof pageFolder>;
