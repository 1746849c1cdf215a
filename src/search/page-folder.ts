// The pages Pagefind indexes, handed to it as a folder: it parses a folder's pages on every core,
// a page handed over alone on one. Each page is written as the run hands it over, so its HTML is
// not held until the index is made, and Pagefind takes each page's URL from its place in the folder.
// A build keeps its folder for the next (`search-pages` in the cache folder, with what each page's
// hash was): the next build reads no page that did not change, and can hand Pagefind the folder
// before its own pages are made.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Buffer } from 'node:buffer';
import path from 'node:path';
import type { PagefindIndex } from 'pagefind';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { catalogueError } from '../errors/errors.ts';

/** A folder of pages in the cache folder, `search-pages-<pid>-<n>`: removed by its run, or after a kill by a later one. */
const PAGES_FOLDER = /^search-pages-(\d+)-\d+$/;
/** The folder the last build kept: a run claims it by renaming it to one of its own, and puts it back once it is whole. */
const KEPT = 'search-pages';
/** In the folder, what it holds: each page's URL, hash and size. A dot starts no page's file name (PLAIN_SEGMENT). */
const HOLDS = '.pages.json';
const HOLDS_VERSION = 1;
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

/** A page the folder holds: its hash as the run that wrote it knew it, and its size. */
interface Held {
  hash: string;
  bytes: number;
}

/** What a kept folder says it holds, by file; nothing when it says nothing clear (then it is not used). */
function readHolds(dir: string): Map<string, Held> | undefined {
  try {
    const holds = JSON.parse(readFileSync(path.join(dir, HOLDS), 'utf8')) as {
      version: number;
      pages: Record<string, [string, number]>;
    };
    if (holds.version !== HOLDS_VERSION) return undefined;
    return new Map(Object.entries(holds.pages).map(([file, [hash, bytes]]) => [file, { hash, bytes }]));
  } catch {
    return undefined;
  }
}

/**
 * Claims the folder the last build kept (renamed to `dir`, so a build beside this one cannot use it
 * too) and what it holds of this run's pages (`isFile`: a file of this run's folder). Only what it
 * lists, of the size it lists, is held: every other file (a page no longer indexed or now handed
 * over alone, one left by a failed write) is removed, and the folders left empty. Else starts
 * `dir` empty.
 */
function claimKept(cacheDir: string, dir: string, isFile: (file: string) => boolean): Map<string, Held> {
  try {
    renameSync(path.join(cacheDir, KEPT), dir);
  } catch {
    return new Map();
  }
  const listed = readHolds(dir);
  const holds = new Map<string, Held>();
  try {
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
    for (const entry of entries.filter((one) => !one.isDirectory())) {
      const file = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      const held = listed?.get(file);
      if (held && entry.isFile() && isFile(file) && statSync(path.join(dir, file)).size === held.bytes)
        holds.set(file, held);
      else rmSync(path.join(dir, file), { force: true });
    }
    // Deepest first: a page of this run may be written where a folder was (`/news` after `/news/x`).
    const folders = entries.filter((one) => one.isDirectory()).map((one) => path.join(one.parentPath, one.name));
    for (const folder of folders.sort((x, y) => y.length - x.length))
      if (readdirSync(folder).length === 0) rmdirSync(folder);
  } catch {
    // What cannot be read or removed: the folder starts empty.
    rmSync(dir, { recursive: true, force: true });
    return new Map();
  }
  return holds;
}

/** Claims the folder `dir` (`kept`: the one the last build kept, else an empty one); what it holds of this run's pages. */
function openFolder(cacheDir: string, dir: string, isFile: (file: string) => boolean, kept: boolean) {
  removeFilesOfEndedProcesses(cacheDir, PAGES_FOLDER);
  // One a killed process of the same id left (a container's build is often process 1). What
  // cannot be removed fails the writes, reported by addTo.
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Reported by the writes.
  }
  return kept ? claimKept(cacheDir, dir, isFile) : new Map<string, Held>();
}

/** Writes the pages into the folder `dir` that holds `holds`, each where Pagefind gives it its URL (`fileOf`), else apart. */
function folderWriter(dir: string, holds: ReadonlyMap<string, Held>, fileOf: (url: string) => string | undefined) {
  const parents = new Map<string, Promise<unknown>>();
  const written = new Map<string, Promise<void>>([...holds.keys()].map((file) => [file, Promise.resolve()]));
  const sizes = new Map([...holds].map(([file, { bytes }]) => [file, bytes]));
  const apart = new Map<string, string>();
  /** The files put by this run: their hash is the run's. */
  const fresh = new Set<string>();
  let pending = 0;
  /** Until Pagefind listed the folder, a file it holds is not replaced: on some file systems a rename moves a name in the listing. */
  let listed: Promise<unknown> = Promise.resolve();
  let writes = 0;
  /** Writes a page where Pagefind gives it its URL, or keeps it to hand over alone. */
  const put = (url: string, content: string): Promise<void> => {
    const file = fileOf(url);
    if (!file) {
      apart.set(url, content);
      return Promise.resolve();
    }
    sizes.set(file, Buffer.byteLength(content));
    fresh.add(file);
    const parent = path.dirname(path.join(dir, file));
    let ready = parents.get(parent);
    if (!ready) parents.set(parent, (ready = mkdir(parent, { recursive: true })));
    // After the page's earlier copy, if it had one: the last put is what the folder holds. Written
    // aside and renamed, so that Pagefind reading the folder meanwhile reads one copy whole.
    const aside = path.join(parent, `.w${writes++}`);
    const writing = Promise.all([written.get(file)?.catch(() => {}), holds.has(file) && listed.catch(() => {})])
      .then(() => ready)
      .then(() => writeFile(aside, content))
      .then(() => rename(aside, path.join(dir, file)))
      .catch(async (error: unknown) => {
        await rm(aside, { force: true }).catch(() => {});
        throw error;
      });
    pending++;
    writing.catch(() => {}).finally(() => pending--); // a failure is reported by addTo
    written.set(file, writing);
    return writing;
  };
  return {
    written,
    sizes,
    apart,
    fresh,
    /** How many pages are being written: each holds its HTML until it is. */
    pending: () => pending,
    put,
    /** Holds the writes of the files the folder held until `listing` settles. */
    holdWritesUntil: (listing: Promise<unknown>) => void (listed = listing),
  };
}

type Answered = <A>(call: Promise<A>) => Promise<A>;

/** Pagefind's answer to pages handed over, its errors thrown. */
async function added<R extends { errors: string[] }>(answer: Promise<R>): Promise<R> {
  const result = await answer;
  if (result.errors.length > 0) throw catalogueError('SearchIndexFailed', [result.errors.join('; ')]);
  return result;
}

/** Hands Pagefind the pages of the folder `dir` as `writer` wrote them: its part of `pageFolder`. */
function handOver(dir: string, holds: ReadonlyMap<string, Held>, writer: ReturnType<typeof folderWriter>) {
  const { written, apart } = writer;
  /** Hands Pagefind the pages kept apart, each with its URL; how many. */
  const addApart = async (index: PagefindIndex, answered: Answered): Promise<number> => {
    const alone = [...apart].sort(([a], [b]) => (a < b ? -1 : 1));
    await Promise.all(alone.map(([url, content]) => added(answered(index.addHTMLFile({ url, content })))));
    return alone.length;
  };
  return {
    addApart,
    /** The folder's files as they were claimed, handed to Pagefind before this run's pages are made; how many it indexed. */
    async addBefore(index: PagefindIndex): Promise<number> {
      if (holds.size === 0) return 0;
      const glob = `{${[...holds.keys()].sort().join(',')}}`;
      return (await added(index.addDirectory({ path: dir, glob }))).page_count;
    },
    /**
     * Hands Pagefind the pages of these files again, each alone with its URL (Pagefind cannot take
     * a page it holds again from a folder: its index is never made), as the folder holds them now.
     */
    async addAgain(index: PagefindIndex, files: readonly string[], answered: Answered): Promise<void> {
      for (const file of files) {
        await written.get(file);
        const content = await readFile(path.join(dir, file), 'utf8');
        await added(answered(index.addHTMLFile({ url: `/${file}`, content })));
      }
    },
    /** Hands Pagefind every page put, the folder's first, the pages apart last; how many it indexed. */
    async addTo(index: PagefindIndex, answered: Answered): Promise<number> {
      await Promise.all(written.values());
      // The files by name: a pattern such as `**/*` also matches the folders, each of which
      // Pagefind then tries to read as a page, again and again, for half a second. The names hold
      // no character a pattern gives a meaning to (PLAIN_SEGMENT).
      const glob = `{${[...written.keys()].sort().join(',')}}`;
      const inFolder = written.size > 0 ? await added(answered(index.addDirectory({ path: dir, glob }))) : undefined;
      return (inFolder?.page_count ?? 0) + (await addApart(index, answered));
    },
  };
}

/**
 * The folder of one index's pages: `put` each page as it comes (a page put again replaces it),
 * `addTo` once all are. With `kept` (a build), it starts as the last build left it, and `keep`
 * leaves it for the next.
 */
export function pageFolder(cacheDir: string, urls: Iterable<string>, kept = false) {
  const all = new Set(urls);
  const folders = folderUrls(all);
  const fileOf = (url: string) => fileForUrl(url, folders);
  const dir = path.join(cacheDir, `search-pages-${process.pid}-${made++}`);
  const holds = openFolder(cacheDir, dir, (file) => all.has(`/${file}`) && fileOf(`/${file}`) === file, kept);
  const writer = folderWriter(dir, holds, fileOf);
  const { written, sizes, apart, fresh, put } = writer;
  const remove = async (): Promise<void> => {
    await Promise.allSettled(written.values());
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  return {
    ...handOver(dir, holds, writer),
    /** The pages' text, in megabytes (Pagefind's time to answer grows with it). */
    megabytes: () => ([...sizes.values()].reduce((sum, size) => sum + size, 0) + apart.size * 50_000) / 1e6,
    /** How many pages are being written: each holds its HTML until it is. */
    pending: writer.pending,
    put,
    /** Puts a page unless the folder holds it as it is (its hash as the folder held it, not put again meanwhile). */
    putUnlessHeld(url: string, hash: string | undefined, content: () => string): void {
      const file = fileOf(url);
      if (file !== undefined && hash !== undefined && !fresh.has(file) && holds.get(file)?.hash === hash) return;
      void put(url, content()).catch(() => {}); // a failure is reported by addTo
    },
    /** Holds the writes of the files the folder held until `listing` (Pagefind reading them) settles. */
    holdWritesUntil: writer.holdWritesUntil,
    /** The file of a URL's page in the folder; none when it is handed over alone. */
    fileOf,
    /** The hash of the page at this URL as the folder held it when claimed: the same page needs no writing. */
    heldBefore: (url: string): string | undefined => holds.get(url.slice(1))?.hash,
    /** How many pages the folder held when claimed. */
    heldCount: () => holds.size,
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
    /** How many pages were put. */
    size: () => written.size + apart.size,
    /**
     * Leaves the folder for the next build, saying what each page's hash is (`hashes`, by URL, of
     * the pages put in this run), once every write ended; a page whose write failed, or whose hash
     * is not known, is left out.
     */
    async keep(hashes: ReadonlyMap<string, string>): Promise<void> {
      const pages: Record<string, [string, number]> = {};
      for (const [file, writing] of written) {
        const hash = fresh.has(file) ? hashes.get(`/${file}`) : holds.get(file)?.hash;
        const ok = await writing.then(
          () => true,
          () => false,
        );
        if (ok && hash !== undefined) pages[file] = [hash, sizes.get(file) ?? 0];
      }
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, HOLDS), JSON.stringify({ version: HOLDS_VERSION, pages }));
        renameSync(dir, path.join(cacheDir, KEPT));
      } catch {
        // Another build kept its folder first, or the disk is full: the next build writes every page.
        await remove();
      }
    },
    /** Removes the folder; never fails (what it leaves, a later run removes). */
    remove,
  };
}

export type PageFolder = ReturnType<typeof pageFolder>;
