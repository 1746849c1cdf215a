import { parseArticles, reportRawHtml, type Article, type ArticleSource } from './articles.ts';
import { contentKey, openMarkdownCache, type MarkdownCache } from './markdown-cache.ts';
import { createMarkdownPool } from './markdown-pool.ts';

export interface ParsedWithCache {
  /** Every article, drafts included, newest first; those in `pending` have no HTML yet. */
  all: Article[];
  pending: Array<{ article: Article; key: string }>;
  /** The content hash of each source, by file. */
  keys: ReadonlyMap<string, string>;
  cache: MarkdownCache;
  /** Whether the cache file no longer matches what this build uses. */
  stale: boolean;
}

/** Parses articles, taking the front matter and HTML of files seen before from the cache. */
export async function parseWithCache(
  sources: readonly ArticleSource[],
  options: { now: Date; warn: (message: string) => void; cacheDir: string },
): Promise<ParsedWithCache> {
  const cache = await openMarkdownCache(options.cacheDir);
  const keys = new Map<string, string>();
  const remembered = new Set<string>();
  const all = parseArticles(sources, { now: options.now, warn: options.warn }, (source) => {
    const key = contentKey(source.text);
    keys.set(source.file, key);
    const parts = cache.get(key);
    if (parts) remembered.add(source.file);
    return parts;
  });
  const pending = all.filter((article) => !remembered.has(article.file)).map((article) => ({ article, key: keys.get(article.file)! }));
  return { all, pending, keys, cache, stale: pending.length > 0 || remembered.size !== sources.length };
}

/**
 * Converts the pending articles' Markdown in helper processes, filling in each article's HTML and
 * the cache; `onConverted` hears of each batch as it lands.
 */
export function convertPending(
  parsed: Pick<ParsedWithCache, 'pending' | 'cache'>,
  options: { cacheDir: string; onConverted?: (articles: Article[]) => void; warn?: (message: string) => void },
): { done: Promise<void>; close: () => Promise<void> } {
  const { pending, cache } = parsed;
  if (pending.length === 0) return { done: Promise.resolve(), close: async () => {} };
  const pool = createMarkdownPool({ cacheDir: options.cacheDir });
  const done = pool
    .convert(
      pending.map((item) => item.article.markdown),
      (indexes, results) => {
        const converted = indexes.map((index, position) => {
          const item = pending[index]!;
          const { html, rawHtmlLines } = results[position]!;
          item.article.html = html;
          if (options.warn) reportRawHtml(item.article, rawHtmlLines, options.warn);
          cache.set(item.key, { data: item.article.data, html, rawHtmlLines });
          return item.article;
        });
        options.onConverted?.(converted);
      },
    )
    .then(() => undefined);
  done.catch(() => {});
  return { done, close: () => pool.close() };
}
