// The search index: Pagefind fed the HTML of the indexed pages as the run makes them, its files
// written into the same output as the pages (staged and swapped in with them by `build`).
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PagefindIndex } from 'pagefind';
import { readEntrySync, writeEntrySync } from '../cache/store.ts';
import type { Article } from '../content/article.ts';
import { catalogueError, SsgError } from '../errors/errors.ts';
import type { FeatureCache, FeatureMade, FeatureRun, FeatureRunInput } from '../features/contract.ts';
import type { Output, OutputFile } from '../output/output-file.ts';
import { inlineStyleTag } from '../render/head.ts';
import type { PageJob } from '../render/routes.ts';
import { pageFolder, type PageFolder } from './page-folder.ts';
import { isIndexedPage, SEARCH_DIR, type SiteSearch } from './search.ts';

/** What the browser loads of Pagefind's output: its API, its worker, the index. Not its ready-made UIs. */
const SERVED =
  /^(pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|[^/]+\.pf_meta|wasm\.[^/]+\.pagefind|(index|fragment|filter)\/.+)$/;

/** The files worth precompressing: Pagefind's own index files are compressed already. */
const TEXT = /\.(js|json)$/;

type InlineStyle = { url: string; text: string };

/** The index as the last run made it, and which pages (path and hash) it was made of. */
export interface SearchOutput {
  key: string;
  files: OutputFile[];
}

/** A page of the index: its hash, and its HTML when it is not in the folder yet, read only when the index is made (a cached page's is on disk). */
interface IndexedPage {
  html?: () => string;
  hash: string;
}

/**
 * Pages made faster than they are written (every page rendered again, after a site-code edit) wait
 * to be read until the index is made, as carried-over pages do, rather than queue their HTML.
 */
const WRITING_AT_MOST = 64;

/** What no page's entry in the index holds: the `#` linking each heading to itself is no word of it. */
const EXCLUDED = ['.heading-anchor'];

/** The pages an index is made of (their paths and hashes), in path order whatever order the run made them in. */
function indexKey(pages: ReadonlyMap<string, IndexedPage>, language: string | undefined): string {
  return JSON.stringify([
    language ?? '',
    EXCLUDED,
    ...[...pages].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, { hash }]) => [p, hash]),
  ]);
}

/**
 * Pagefind's API, loaded when a site first indexes: a site without search never needs it
 * installed. A failed load is not kept: installed meanwhile, it loads on the next try.
 */
let pagefind: Promise<typeof import('pagefind')> | undefined;
const loadPagefind = () =>
  (pagefind ??= import('pagefind').catch((error: unknown) => {
    pagefind = undefined;
    throw catalogueError('SearchIndexFailed', [`Pagefind is not installed (${(error as Error).message})`]);
  }));

async function pagefindIndex(language: string | undefined): Promise<PagefindIndex> {
  const { createIndex } = await loadPagefind();
  const { errors, index } = await createIndex({
    excludeSelectors: EXCLUDED,
    ...(language ? { forceLanguage: language } : {}),
  });
  if (!index) throw catalogueError('SearchIndexFailed', [errors.join('; ')]);
  return index;
}

/**
 * How long Pagefind may answer nothing while asked something before its process is taken for dead
 * (it may have died without a word: its wrapper does not notice its process ending after it read
 * its input). Making the index's files is one silent request whose time grows with the text, so
 * each megabyte of pages handed to it adds `msPerMegabyte`.
 */
export const pagefindLimits = { silenceMs: 60_000, msPerMegabyte: 5_000 };

/**
 * Settles as `work` does, or fails once no answer of `answered` came for `limitMs()`.
 */
async function unlessSilent<T>(
  limitMs: () => number,
  work: (answered: <A>(call: Promise<A>) => Promise<A>) => Promise<T>,
): Promise<T> {
  let last = Date.now();
  const answered = <A>(call: Promise<A>) => call.finally(() => (last = Date.now()));
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setInterval(
      () => {
        const limit = limitMs();
        if (Date.now() - last < limit) return;
        reject(catalogueError('SearchIndexFailed', [`it answered nothing for ${Math.round(limit / 100) / 10} s`]));
      },
      Math.min(1000, limitMs()),
    );
  });
  try {
    return await Promise.race([work(answered), silent]);
  } finally {
    clearInterval(timer);
  }
}

/** Pagefind's index of the pages a folder held when claimed: started before the run's own pages are made. */
interface EarlyIndex {
  index: PagefindIndex;
  count: number;
}

/** How the index is made: from the whole folder, or from the early index with the pages that changed handed over again. */
type Making = { early: Promise<EarlyIndex>; again: readonly string[] } | undefined;

/** Indexes the folder's pages and returns the files of the index that the site serves. */
async function runPagefind(folder: PageFolder, language: string | undefined, making: Making): Promise<OutputFile[]> {
  try {
    const limitMs = () => pagefindLimits.silenceMs + pagefindLimits.msPerMegabyte * folder.megabytes();
    const files = await unlessSilent(limitMs, async (answered) => {
      let index: PagefindIndex | undefined;
      // The index begun on the kept folder; if it failed, or did not index every page it was
      // handed (a file gone from the folder), Pagefind starts again on the whole folder.
      const early = making && (await answered(making.early).catch(() => undefined));
      if (making && early?.count === folder.heldCount()) {
        index = early.index;
        await folder.addAgain(index, making.again, answered);
        await folder.addApart(index, answered);
      } else {
        if (making) await stopIndexing();
        index = await answered(pagefindIndex(language));
        const count = await folder.addTo(index, answered);
        if (count !== folder.size())
          throw catalogueError('SearchIndexFailed', [`it indexed ${count} of the ${folder.size()} pages`]);
      }
      const made = await answered(index.getFiles());
      if (made.errors.length > 0) throw catalogueError('SearchIndexFailed', [made.errors.join('; ')]);
      return made.files;
    });
    return files
      .filter((file) => SERVED.test(file.path))
      .map((file) => ({ path: `${SEARCH_DIR}/${file.path}`, contents: file.content }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
  } catch (error) {
    // Its wrapper's own errors ("Pagefind backend closed") say nothing of what failed.
    if (error instanceof SsgError) throw error;
    throw catalogueError('SearchIndexFailed', [(error as Error).message], {}, { cause: error });
  } finally {
    await stopIndexing();
  }
}

/**
 * Ends Pagefind's process (a process of its own, ended with each index, so a build leaves none
 * behind); an index being made fails at once.
 */
export const stopIndexing = async (): Promise<unknown> => (await pagefind?.catch(() => undefined))?.close();

/**
 * Pages changed since the last build that are handed to the index it kept (each alone, on one core)
 * rather than making it again from the whole folder (on every core).
 */
const AGAIN_AT_MOST = 64;

/** Starts Pagefind on the pages the folder held when claimed; its failure is reported when awaited. */
function startEarly(folder: PageFolder, language: string | undefined): Promise<EarlyIndex> {
  const early = (async () => {
    const index = await pagefindIndex(language);
    return { index, count: await folder.addBefore(index) };
  })();
  early.catch(() => {}); // reported when the index is made
  folder.holdWritesUntil(early);
  return early;
}

/**
 * Puts into the folder each page it lacks, or holds as it was (read now, a carried-over page's from
 * disk): the files of those in the folder, which Pagefind is handed again.
 */
async function putWhatIsNotHeld(
  into: PageFolder,
  pages: ReadonlyMap<string, IndexedPage>,
  stop: () => boolean,
): Promise<string[]> {
  const again: string[] = [];
  const read: [string, () => string][] = [];
  for (const [url, page] of pages) {
    const file = into.fileOf(url);
    if (file !== undefined && into.heldBefore(url) === page.hash) continue;
    if (page.html) read.push([url, page.html]);
    if (file !== undefined) again.push(file);
  }
  await into.putAll(read, stop);
  return again;
}

/**
 * Makes the index from the folder: from the index begun on the kept folder, with the pages that
 * changed handed over again, when it holds them all at their place; else from the whole folder.
 * The folder is removed when that fails.
 */
async function indexFolder(
  into: PageFolder,
  run: {
    pages: ReadonlyMap<string, IndexedPage>;
    early: Promise<EarlyIndex> | undefined;
    language: string | undefined;
    ended: () => boolean;
  },
): Promise<OutputFile[]> {
  const { early } = run;
  try {
    const again = await putWhatIsNotHeld(into, run.pages, run.ended);
    if (run.ended()) throw new Error('the run ended before the search index was made');
    // Pagefind numbers a page added later after the rest (a full index numbers them in the
    // folder's order): with a page new, or many changed, it starts again, so that the index is
    // always the one made from the whole folder. (A page gone was never handed to it.)
    const added = again.some((file) => into.heldBefore(`/${file}`) === undefined);
    const making = early && !added && again.length <= AGAIN_AT_MOST ? { early, again } : undefined;
    if (early && !making) await stopIndexing();
    return await runPagefind(into, run.language, making);
  } catch (error) {
    await into.remove();
    throw error;
  }
}

/**
 * The style sheet every page carries inline is most of a page's bytes and nothing to find: taken
 * out as it was put in, it halves what Pagefind is sent and parses.
 */
function styleRemover(inlineStyle: InlineStyle | undefined): (html: string) => string {
  const style = inlineStyle && inlineStyleTag(inlineStyle);
  return (html) => (style ? html.replace(style, '') : html);
}

/**
 * Hears of the pages that go into the index as the run writes them (`watch` wraps the run's
 * output), then makes the index, or takes the last run's when it was made of the same pages. With
 * `eager` (a build), each page goes into the folder Pagefind reads as it is written, its HTML not
 * held meanwhile, and the folder the last build kept is handed to Pagefind at once; else (dev,
 * where the index is made only when asked for) when the index is made.
 */
function searchIndexer(
  search: SiteSearch,
  jobs: readonly PageJob[],
  site: { articles: readonly Article[]; inlineStyle?: InlineStyle; now: Date; project: { cacheDir: string } },
  eager: boolean,
) {
  const withoutStyle = styleRemover(site.inlineStyle);
  const known = new Set(site.articles);
  const indexed = new Map(
    jobs.filter((job) => isIndexedPage(search, job, known, site.now)).map((job) => [job.outputPath, job.path]),
  );
  let folder: PageFolder | undefined;
  let early: Promise<EarlyIndex> | undefined;
  /**
   * A build claims the folder the last one kept as its output opens (not before: a run that fails
   * sooner has nothing to give back), and starts Pagefind on it, unless a page new to it is
   * certain: the index is then made from the whole folder anyway.
   */
  const begin = () => {
    if (!eager || folder) return;
    folder = pageFolder(site.project.cacheDir, indexed.values(), true);
    const into = folder;
    const allHeld = [...indexed.values()].every((url) => into.fileOf(url) === undefined || into.heldBefore(url));
    if (into.heldCount() > 0 && allHeld) early = startEarly(into, search.language);
  };
  const pages = new Map<string, IndexedPage>();
  /** Set when the run ended first: no Pagefind is started after it. */
  let ended = false;
  return {
    /** Whether Pagefind may be at work for this run. */
    started: () => early !== undefined,
    /** The run's output, telling the indexer of each page it is handed. */
    watch<Written>(output: Output<Written>): Output<Written> {
      begin();
      return {
        ...output,
        write(file, compress) {
          const url = indexed.get(file.path);
          if (url !== undefined) {
            // A page made now goes into the folder at once (its HTML is not held meanwhile), unless
            // it holds the page as it is, or many are being written; one carried over, or any in
            // dev, is read (a cached page's from disk) when the index is made, if the folder does
            // not hold it already.
            const html = () => withoutStyle(String(file.contents));
            const into = folder;
            const atOnce = into && !file.unread && into.pending() < WRITING_AT_MOST;
            if (atOnce) into.putUnlessHeld(url, file.hash, html);
            pages.set(url, { hash: file.hash ?? '', ...(atOnce ? {} : { html }) });
          }
          output.write(file, compress);
        },
      };
    },
    /** The index's files: made again only when a page in it changed (its hash), else `previous`. */
    async files(hashOf: (outputPath: string) => string, previous: SearchOutput | undefined): Promise<SearchOutput> {
      for (const [outputPath, url] of indexed) {
        const page = pages.get(url);
        if (page) page.hash = hashOf(outputPath);
      }
      const hashes = new Map([...pages].map(([url, { hash }]) => [url, hash]));
      const key = indexKey(pages, search.language);
      if (previous?.key === key) {
        if (early) await stopIndexing();
        await folder?.keep(hashes);
        return previous;
      }
      const into = folder ?? pageFolder(site.project.cacheDir, indexed.values());
      const files = await indexFolder(into, { pages, early, language: search.language, ended: () => ended });
      await (folder ? folder.keep(hashes) : into.remove());
      return { key, files };
    },
    /** The run ended before the index was made: no more pages are written for it, and none is started. */
    end: () => void (ended = true),
    /** Removes the folder of pages, once the index's work has ended. */
    dispose: () => folder?.remove(),
  };
}

/**
 * The search's part in a run: `output` wraps the run's output so that the indexer hears of each
 * page and the index's files are written before the output commits (text ones precompressed as
 * the assets are); `pagesMade` makes the index, meanwhile, once every page is made; `made` is what
 * the run's state keeps. `whenAsked` (dev): the index is not made by the run, the state keeps how
 * to make it.
 */
export function searchRun(search: SiteSearch, input: FeatureRunInput<SearchOutput>): FeatureRun<SearchOutput> {
  const { whenAsked, earlier } = input;
  const indexer = searchIndexer(search, input.jobs, input, !whenAsked);
  let searching: Promise<SearchOutput> | undefined;
  let made: SearchOutput | undefined;
  let make: FeatureMade<SearchOutput>['make'];
  return {
    output(output) {
      const watched = indexer.watch(output);
      if (whenAsked) return watched;
      return {
        ...watched,
        async commit() {
          made = await searching;
          for (const file of made?.files ?? []) output.write(file, TEXT.test(file.path));
          return output.commit();
        },
        async abort() {
          // Pagefind's process ends before the run does, and the pages written for it go.
          indexer.end();
          if (searching || indexer.started()) await stopIndexing();
          await searching?.catch(() => {});
          await indexer.dispose();
          await output.abort();
        },
      };
    },
    pagesMade(pages) {
      const hashOf = (outputPath: string) => pages.get(outputPath)!.hash;
      if (whenAsked) {
        make = (kept) => indexer.files(hashOf, kept);
        return;
      }
      searching = indexer.files(hashOf, earlier);
      searching.catch(() => {}); // reported at commit
    },
    made: () => (made ? { made } : make ? { make } : {}),
  };
}

/** Pagefind's version: another may write another index from the same pages. */
function pagefindVersion(): string {
  try {
    // Its package exports only `import`: require.resolve cannot find it.
    const main = fileURLToPath(import.meta.resolve('pagefind'));
    return (
      JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The last build's index, kept in the cache folder (one entry, replaced by each build): a build
 * whose indexed pages came out as before (site code changed, the pages did not) takes it as it is.
 */
export function searchCache(cacheDir: string): FeatureCache<SearchOutput> {
  const file = path.join(cacheDir, 'search-index');
  const version = pagefindVersion();
  let read: SearchOutput | undefined;
  return {
    read(): SearchOutput | undefined {
      const payload = readEntrySync(file);
      if (!payload) return undefined;
      try {
        const kept = JSON.parse(payload.toString('utf8')) as {
          version: string;
          key: string;
          files: [string, string][];
        };
        if (kept.version !== version) return undefined;
        const files = kept.files.map(([at, bytes]) => ({
          path: at,
          contents: new Uint8Array(Buffer.from(bytes, 'base64')),
        }));
        return (read = { key: kept.key, files });
      } catch {
        return undefined;
      }
    },
    /** Keeps the index the build made, unless it is the one `read` gave (nothing to write). */
    keep(made: SearchOutput | undefined): void {
      if (!made || made === read) return;
      const files = made.files.map((item) => [item.path, Buffer.from(item.contents).toString('base64')]);
      writeEntrySync(file, Buffer.from(JSON.stringify({ version, key: made.key, files })));
    },
  };
}
