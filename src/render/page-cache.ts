import { statSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { sourceFingerprint } from '../base/fingerprint.ts';
import {
  discardEntry,
  keepContentEntry,
  pruneEntries,
  readContentEntry,
  readEntrySync,
  writeEntrySync,
} from '../cache/store.ts';
import { outputHash } from '../output/output-file.ts';
import type { PageReads } from './dependencies.ts';
import { readLines, readsAsBefore, readSignatures, sha1, type ReadSources } from './page-read-signatures.ts';
import { fragmentTargets, hasSlashedLink, type PageLink, type PageLinks } from './links.ts';
import { generatorRoot } from '../project.ts';

/**
 * Rendered pages kept between builds with what each read while it rendered. A page is taken from
 * the cache only when all it read is unchanged and so is what every page depends on (site code,
 * template, generator, the build's date, time zone, locale and options).
 */
export interface PageCache {
  /** The stored page, if nothing it depends on changed: its HTML is read only when asked for; its links name it `urlPath`. */
  get(outputPath: string, entryKey: string, urlPath?: string): CachedPage | undefined;
  /**
   * The stored page of `outputPath` when the page, rendered again because something it read
   * changed, came out as it was (`hash`, and the same entry key): its links as then, without
   * `set` needing to take them out again. Its reads are renewed by `set`.
   */
  sameAs(outputPath: string, entryKey: string, hash: string, urlPath?: string): CachedPage | undefined;
  /** `sameBytesAt`: a file holding the page's HTML (the page as just written into the output), kept as its entry by a second name. */
  set(
    outputPath: string,
    entryKey: string,
    page: { html: string; hash: string; islands: string[]; links: PageLinks; measures: PageMeasures },
    reads: PageReads,
    sameBytesAt?: string,
  ): void;
  /** The files the link check of the build that kept the pages saw (see LinkCheckContext.previousFiles). */
  previousFiles: readonly string[] | undefined;
  /** Writes the pages of this build (only those), with the files its link check saw, atomically; never fails the build. */
  save(checkedFiles?: ReadonlySet<string>): Promise<void>;
}

/** What the build reports of a page, measured from its HTML when it was rendered. */
export interface PageMeasures {
  htmlBytes: number;
  /** The scripts it loads before first paint. */
  firstPaintScripts: string[];
}

/** A page as kept: all but its HTML, which is read from its own entry when the output needs it (it rarely does: the output folder holds it). */
interface CachedPage {
  readonly html: string;
  /** `outputHash` of the HTML. */
  hash: string;
  islands: string[];
  links?: PageLinks;
  measures: PageMeasures;
}

interface StoredPage {
  entryKey: string;
  /**
   * `outputHash` of the page's HTML, kept apart as `pages/<hash as hex>.html`, one entry per HTML,
   * so a build writes only the pages it rendered and the index stays small. Checked against its
   * name on read; a hard link to the page in the output when one can be made (see keepContentEntry).
   */
  hash: string;
  measures: PageMeasures;
  islands: string[];
  /**
   * What the page read and its signature then, one `<read>\x01<signature>` a line (`\x02`
   * between lines): '*' for the article list, 'a:<slug>\0<fields>', 'd:<name>'. One string, not
   * an object of a thousand keys for a tag page: V8 reads it back as one copy.
   */
  reads: string;
  /**
   * Its links and ids (JSON of StoredLinks), as the link check takes them out of its HTML: a page
   * from the cache is not parsed again, and its links are read only if the check looks at them.
   */
  links?: string;
  /** The source file the page was made from (what the link check names). */
  file?: string;
  /** The other pages its fragments point at, a line each: see PageLinks.passed. None when it has a link in the form with a slash. */
  passed?: string;
}

interface StoredLinks {
  links: PageLink[];
  ids: string[];
}

interface Stored {
  global: string;
  pages: Record<string, StoredPage>;
  /** The site's files as the link check of the build that kept these pages saw them, a line each. */
  files?: string;
  /**
   * Set once an entry that was a second name of a page in the output was found changed (the
   * output is changed in place after builds): entries are copies from then on, never links.
   */
  copies?: boolean;
}

/**
 * The generator's own sources and its installed packages (the fingerprint covers npm's install
 * record): rendering with a changed renderer or React must not reuse pages.
 */
const generatorStamp = (): string => sourceFingerprint(generatorRoot);

/** The time zone and locale: pages that format dates without naming them format them in these. */
export function dateEnvironment(): string {
  const { timeZone, locale } = Intl.DateTimeFormat().resolvedOptions();
  return `${timeZone}\0${locale}`;
}

export const pageCacheFile = (cacheDir: string) => path.join(cacheDir, 'pages.bin');
/** The folder of the pages' HTML, one entry per HTML by its hash. */
export const pageHtmlDir = (cacheDir: string) => path.join(cacheDir, 'pages');
const htmlEntry = (dir: string, hash: string) => path.join(dir, `${Buffer.from(hash, 'base64').toString('hex')}.html`);
const HTML_ENTRY = /^[0-9a-f]{40}\.html$/;

/** The stored pages, if the file is intact, of the expected shape and made under `global`. */
function readStored(file: string, global: string): Stored | undefined {
  const payload = readEntrySync(file);
  if (!payload) return undefined;
  try {
    const stored = deserialize(payload) as Partial<Stored> | null;
    if (stored?.global !== global || typeof stored.pages !== 'object' || stored.pages === null) return undefined;
    return stored as Stored;
  } catch {
    return undefined;
  }
}

const isPage = (page: unknown): page is StoredPage =>
  typeof page === 'object' &&
  page !== null &&
  typeof (page as StoredPage).entryKey === 'string' &&
  typeof (page as StoredPage).hash === 'string' &&
  typeof (page as StoredPage).measures?.htmlBytes === 'number' &&
  Array.isArray((page as StoredPage).measures.firstPaintScripts) &&
  Array.isArray((page as StoredPage).islands) &&
  typeof (page as StoredPage).reads === 'string';

/** Where the cache is, what every page depends on, and what a page's reads are signed from. */
export interface PageCacheInputs extends ReadSources {
  cacheDir: string;
  /** Everything every page depends on besides articles and data: code, template, options. */
  shared: Array<string | Uint8Array>;
  /** When the build started: pages may show its date, so the cache lasts a day (UTC) at most. */
  now: Date;
}

/**
 * A stored page's links as the link check takes them, `links` and `ids` read from their JSON when
 * first asked for (the entry is checksummed: the text is what `set` wrote). A page that passed the
 * last build's check as it is mostly never has them read.
 */
function storedLinks(page: StoredPage, urlPath: string): PageLinks | undefined {
  const text = page.links;
  if (typeof text !== 'string') return undefined;
  let parsed: StoredLinks | undefined;
  let ids: Set<string> | undefined;
  const read = () => (parsed ??= JSON.parse(text) as StoredLinks);
  return {
    path: urlPath,
    ...(page.file !== undefined ? { file: page.file } : {}),
    get links() {
      return read().links;
    },
    get ids() {
      return (ids ??= new Set(read().ids));
    },
    ...(typeof page.passed === 'string'
      ? { passed: { targets: page.passed === '' ? [] : page.passed.split('\n') } }
      : {}),
  };
}

/**
 * A page's HTML from its entry; one damaged or gone is forgotten (the caller renders the page, and
 * the next build keeps it again). `sharedDamaged` hears of a damaged entry that had another name:
 * the page in the output it was linked to was changed in place (a post-processing step, say).
 */
function readHtml(entry: string, hash: string, forget: () => void, sharedDamaged: () => void): string {
  const bytes = readContentEntry(entry);
  if (bytes && outputHash(bytes) === hash) return bytes.toString('utf8');
  if (bytes && (statSync(entry, { throwIfNoEntry: false })?.nlink ?? 1) > 1) sharedDamaged();
  forget();
  discardEntry(entry);
  throw new Error(`the cached HTML of ${entry} was damaged or went while the build ran`);
}

/** A rendered page as kept, with what it read (`reads`, as written down). */
function storedPage(entryKey: string, page: Parameters<PageCache['set']>[2], reads: string): StoredPage {
  const links: StoredLinks = { links: [...page.links.links], ids: [...page.links.ids] };
  return {
    entryKey,
    hash: page.hash,
    measures: page.measures,
    islands: page.islands,
    reads,
    links: JSON.stringify(links),
    ...(page.links.file !== undefined ? { file: page.links.file } : {}),
    // Kept only when the build passes (save), so its links passed this build's check.
    ...(hasSlashedLink(page.links) ? {} : { passed: fragmentTargets(page.links).join('\n') }),
  };
}

/** The stored page of an output path, when there is a well-formed one. */
function storedAt(stored: Stored | undefined, outputPath: string): StoredPage | undefined {
  const page = stored && Object.hasOwn(stored.pages, outputPath) ? stored.pages[outputPath] : undefined;
  return isPage(page) ? page : undefined;
}

/** Removes the HTML entries no kept page names (those written since `started` are spared). */
function pruneHtml(htmlDir: string, kept: Stored, started: number): void {
  const used = new Set(Object.values(kept.pages).map((page) => path.basename(htmlEntry(htmlDir, page.hash))));
  try {
    pruneEntries(htmlDir, { used, isEntry: (name) => HTML_ENTRY.test(name), since: started });
  } catch {
    // Pruning only saves space.
  }
}

/** Writes the cache's record when something changed, keeping no page whose HTML entry could not be written. */
async function saveStored(
  run: {
    file: string;
    htmlDir: string;
    started: number;
    stored: Stored | undefined;
    next: Stored;
    writing: ReadonlyMap<string, Promise<boolean>>;
    rendered: boolean;
  },
  checkedFiles: Iterable<string> | undefined,
): Promise<void> {
  const { file, htmlDir, started, stored, next, writing, rendered } = run;
  // An HTML entry that could not be written: its page is not kept.
  const failed = new Set<string>();
  await Promise.all([...writing].map(async ([entry, done]) => (await done) || failed.add(entry)));
  if (failed.size > 0)
    for (const [outputPath, page] of Object.entries(next.pages))
      if (failed.has(htmlEntry(htmlDir, page.hash))) delete next.pages[outputPath];
  // Every page kept passed this build's link check, against these files.
  if (checkedFiles) next.files = [...checkedFiles].sort().join('\n');
  if (
    !rendered &&
    stored &&
    Object.keys(stored.pages).length === Object.keys(next.pages).length &&
    next.files === stored.files &&
    next.copies === stored.copies
  )
    return;
  try {
    writeEntrySync(file, serialize(next));
  } catch {
    return; // Not kept: the next build renders every page.
  }
  pruneHtml(htmlDir, next, started);
}

export function openPageCache(inputs: PageCacheInputs): PageCache {
  const file = pageCacheFile(inputs.cacheDir);
  const htmlDir = pageHtmlDir(inputs.cacheDir);
  const started = Date.now();
  const global = sha1(generatorStamp(), dateEnvironment(), inputs.now.toISOString().slice(0, 10), ...inputs.shared);
  /** The signature today of one thing a page read. */
  const current = readSignatures(inputs);

  const stored = readStored(file, global);
  const next: Stored = { global, pages: {}, ...(stored?.copies ? { copies: true } : {}) };
  /** Whether this build rendered a page: otherwise the stored pages are this build's, unless some went. */
  let rendered = false;
  /** The HTML entries being written, by name: each settles whether it was written. */
  const writing = new Map<string, Promise<boolean>>();
  /** The links handed out by sameAs, and the stored page each came from: `set` keeps their text as it was. */
  const linksFrom = new WeakMap<PageLinks, StoredPage>();
  const cachedPage = (outputPath: string, page: StoredPage, links: PageLinks | undefined): CachedPage => {
    const entry = htmlEntry(htmlDir, page.hash);
    return {
      get html() {
        return readHtml(
          entry,
          page.hash,
          () => delete next.pages[outputPath],
          () => (next.copies = true),
        );
      },
      hash: page.hash,
      islands: page.islands,
      measures: page.measures,
      ...(links ? { links } : {}),
    };
  };

  return {
    previousFiles: typeof stored?.files === 'string' ? stored.files.split('\n') : undefined,
    get(outputPath, entryKey, urlPath = '') {
      const page = storedAt(stored, outputPath);
      if (page?.entryKey !== entryKey || !readsAsBefore(page.reads, current)) return undefined;
      // Its HTML entry is not looked for now: the output folder mostly holds the page, and an entry
      // gone when the HTML is read is forgotten and the page rendered again (a stat for every page
      // would cost a small build more than its one article does).
      next.pages[outputPath] = page;
      return cachedPage(outputPath, page, storedLinks(page, urlPath));
    },
    sameAs(outputPath, entryKey, hash, urlPath = '') {
      const page = storedAt(stored, outputPath);
      if (page?.entryKey !== entryKey || page.hash !== hash) return undefined;
      const links = storedLinks(page, urlPath);
      if (!links) return undefined;
      linksFrom.set(links, page);
      return cachedPage(outputPath, page, links);
    },
    set(outputPath, entryKey, page, reads, sameBytesAt) {
      rendered = true;
      // A data file's name with a separator in it cannot be written down: that page is not kept (rendered again next time).
      if ([...reads.dataKeys].some((name) => /[\x01\x02]/.test(name))) return;
      // The same bytes as the stored page its links came from: that page with what it read now.
      const before = linksFrom.get(page.links);
      const lines = readLines(reads, current);
      next.pages[outputPath] =
        before && before.hash === page.hash ? { ...before, entryKey, reads: lines } : storedPage(entryKey, page, lines);
      const entry = htmlEntry(htmlDir, page.hash);
      const hash = page.hash;
      const bytes = () => Buffer.from(page.html, 'utf8');
      if (!writing.has(entry))
        writing.set(
          entry,
          keepContentEntry(entry, bytes, (kept) => outputHash(kept) === hash, next.copies ? undefined : sameBytesAt),
        );
    },
    save: (checkedFiles) => saveStored({ file, htmlDir, started, stored, next, writing, rendered }, checkedFiles),
  };
}
