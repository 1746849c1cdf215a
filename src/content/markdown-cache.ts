import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { importedPackages, packageVersions } from './package-versions.ts';
import { discardEntry, keepEntry, pruneEntries, readEntry, readEntrySync, writeEntrySync } from '../cache/store.ts';
import { catalogueError } from '../errors/errors.ts';
import { generatorNodeModules, generatorRoot } from '../project.ts';
import type { ParsedParts } from './article-parser.ts';

/**
 * Each article's front matter and converted body by a hash of the file, in
 * `.cache/ssg/markdown.json`, each body's HTML an entry of its own: a build writes only what it
 * converted and reads only what it renders. The key covers the pipeline's source and package
 * versions, so an upgrade converts again. Losing the file costs one slower build.
 */
// Images and front matter too: what they produce is part of what is kept.
const pipelineSource = [
  'content/frontmatter.ts',
  'content/markdown.ts',
  'mdx/mdx.ts',
  'runtime/render-page.tsx',
  'runtime/island-server.tsx',
  'content/markdown-html.ts',
  'content/markdown-alerts.ts',
  'content/markdown-code.ts',
  'content/markdown-plugins.ts',
  'base/trees.ts',
  'images/article-images.ts',
  'images/picture.ts',
  'images/process.ts',
  'images/stage.ts',
]
  .map((file) => readFileSync(path.join(generatorRoot, 'src', file), 'utf8'))
  .join('\n');

let versions: Record<string, string> | undefined;
/** The pipeline's package versions now (read once per process). */
const pipelineVersions = (): Record<string, string> =>
  (versions ??= packageVersions(generatorNodeModules, importedPackages(pipelineSource)));

let pipeline: string | undefined;
const pipelineStamp = () =>
  (pipeline ??= createHash('sha256')
    .update(pipelineSource)
    .update(JSON.stringify(pipelineVersions()))
    .digest('hex')
    .slice(0, 16));

/** The key of an article's text converted by this pipeline with the site's Markdown settings (their `markdownStamp`). */
export function contentKey(text: string, siteStamp = ''): string {
  return createHash('sha256')
    .update(pipelineStamp())
    .update('\0')
    .update(siteStamp)
    .update('\0')
    .update(text)
    .digest('base64url');
}

/** What markdown.json holds: everything but each article's HTML, which is an entry of its own. */
export interface StoredMarkdown {
  /** The installed versions of the pipeline's packages when the HTML was made. */
  versions: Record<string, string>;
  entries: Record<string, StoredParts>;
}

/**
 * An article's parts without the HTML, and the size and modification time of its HTML entry when
 * written or last checked: an entry as noted is trusted without reading it (in a build, whose
 * pages mostly come from the output folder); any other is read and checked first. Not the inode:
 * a cache restored in CI (actions/cache unpacks a tar) has new ones, and the same times.
 */
type StoredParts = Omit<ParsedParts, 'html'> & { entry: [size: number, mtimeMs: number] };

export const markdownCacheFile = (dir: string) => path.join(dir, 'markdown.json');
/** The folder of the articles' HTML, one entry per content key. */
export const markdownHtmlDir = (dir: string) => path.join(dir, 'markdown');
const htmlEntry = (dir: string, key: string) => path.join(dir, `${key}.html`);
/** A content key (base64url SHA-256) as an entry's name. */
const HTML_ENTRY = /^[A-Za-z0-9_-]{43}\.html$/;

export interface MarkdownCache {
  /** The article's parts, its HTML read from its entry only when asked for (it rarely is: most pages come from the output folder). */
  get(key: string): ParsedParts | undefined;
  set(key: string, parts: ParsedParts): void;
  /** Writes the entries used by this build (so stale ones drop out), atomically; never fails the build. */
  save(): Promise<void>;
  stats(): { hits: number; misses: number };
  /** Whether an intact cache was read: without one, the build writes one even if it has no article. */
  found: boolean;
}

const isStoredParts = (value: unknown): value is StoredParts =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredParts).data === 'object' &&
  (value as StoredParts).data !== null &&
  Array.isArray((value as StoredParts).entry) &&
  (value as StoredParts).entry.length >= 2 &&
  (value as StoredParts).entry.every((number) => typeof number === 'number');

/** The stored entries, if the file is intact and made by the packages installed now. */
async function readStored(file: string): Promise<Record<string, StoredParts> | undefined> {
  const payload = await readEntry(file);
  if (!payload) return undefined;
  try {
    const stored = JSON.parse(payload.toString('utf8')) as Partial<StoredMarkdown>;
    if (JSON.stringify(stored.versions) !== JSON.stringify(pipelineVersions())) return undefined;
    return stored.entries && typeof stored.entries === 'object' ? stored.entries : undefined;
  } catch {
    return undefined;
  }
}

const entryStamp = (stat: Stats): StoredParts['entry'] => [stat.size, stat.mtimeMs];

/** Parts whose HTML is read from its entry when first asked for, and checked then. */
function lazyParts(parts: Omit<ParsedParts, 'html'>, file: string, relative: string, forget: () => void): ParsedParts {
  let html: string | undefined;
  return Object.defineProperty({ ...parts }, 'html', {
    enumerable: true,
    get() {
      if (html !== undefined) return html;
      const bytes = readEntrySync(file);
      if (!bytes) {
        // Changed behind the cache's back keeping its size and times, or removed meanwhile (another
        // build pruned it): forgotten, and `build` runs once more reading the cache whole.
        forget();
        discardEntry(file);
        throw catalogueError('CacheEntryChanged', [relative]);
      }
      return (html = bytes.toString('utf8'));
    },
  }) as ParsedParts;
}

/**
 * `root`: the project, for the paths messages name. `lazy`: the HTML of an entry as noted is read
 * when first asked for (one changed since keeping its size and times, or removed meanwhile, is then
 * a CacheEntryChanged error); otherwise it is read with the parts, and one that cannot be read is a miss.
 */
export async function openMarkdownCache(
  dir: string,
  { root = process.cwd(), lazy = false }: { root?: string; lazy?: boolean } = {},
): Promise<MarkdownCache> {
  const file = markdownCacheFile(dir);
  const htmlDir = markdownHtmlDir(dir);
  const started = Date.now();
  const found = await readStored(file);
  const stored = found ?? {};
  /** The parts of this build's articles, and the write of each new HTML entry (true once written). */
  const used = new Map<
    string,
    { parts: Omit<ParsedParts, 'html'>; entry?: StoredParts['entry']; writing?: Promise<boolean> }
  >();
  let hits = 0;
  let misses = 0;
  return {
    get(key) {
      const parts = Object.hasOwn(stored, key) ? stored[key] : undefined;
      if (!isStoredParts(parts)) {
        misses++;
        return undefined;
      }
      const { entry: stamp, ...rest } = parts;
      const entry = htmlEntry(htmlDir, key);
      const stat = statSync(entry, { throwIfNoEntry: false });
      let found: ParsedParts;
      if (lazy && stat?.isFile() && stat.size === stamp[0] && stat.mtimeMs === stamp[1]) {
        found = lazyParts(rest, entry, path.relative(root, entry), () => used.delete(key));
        used.set(key, { parts: rest, entry: stamp });
      } else {
        // Read and checked now: dev, or an entry whose size or time differ from those noted.
        const bytes = stat?.isFile() ? readEntrySync(entry) : undefined;
        if (!bytes) {
          misses++;
          return undefined;
        }
        found = { ...rest, html: bytes.toString('utf8') };
        used.set(key, { parts: rest, entry: entryStamp(stat!) });
      }
      hits++;
      return found;
    },
    set(key, parts) {
      const { html, ...rest } = parts;
      const entry = htmlEntry(htmlDir, key);
      // Written now, on libuv's threads, while the build goes on.
      const writing = keepEntry(entry, Buffer.from(html, 'utf8'));
      used.set(key, { parts: rest, writing });
    },
    async save() {
      const entries: Record<string, StoredParts> = {};
      for (const [key, { parts, entry, writing }] of used) {
        if (writing && !(await writing)) continue; // not written: converted again next time
        const stamp = entry ?? statStamp(htmlEntry(htmlDir, key));
        if (stamp) entries[key] = { ...parts, entry: stamp };
      }
      try {
        writeEntrySync(
          file,
          Buffer.from(JSON.stringify({ versions: pipelineVersions(), entries } satisfies StoredMarkdown)),
        );
      } catch {
        return; // Not kept: the next build converts these articles again.
      }
      try {
        pruneEntries(htmlDir, {
          used: new Set(Object.keys(entries).map((key) => `${key}.html`)),
          isEntry: (name) => HTML_ENTRY.test(name),
          since: started,
        });
      } catch {
        // Pruning only saves space.
      }
    },
    stats: () => ({ hits, misses }),
    found: found !== undefined,
  };
}

function statStamp(file: string): StoredParts['entry'] | undefined {
  try {
    return entryStamp(statSync(file));
  } catch {
    return undefined;
  }
}
