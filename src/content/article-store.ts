import { frontMatterOf, parseArticles, reportRemovedHtml, type ParseOptions } from './article-parser.ts';
import { withHtml, type Article } from './article.ts';
import { type ArticleSource } from './article-file.ts';
import { imagesUnchanged, type ArticleImageRecord } from '../images/article-images.ts';
import { contentKey, openMarkdownCache, type MarkdownCache } from './markdown-cache.ts';
import type { ArticleToConvert, BatchConverter } from './conversion.ts';
import { mergeProblems, reviveProblem, SsgError, SsgErrorList } from '../errors/errors.ts';
import type { ArticleLimits } from './limits.ts';

export interface ParsedWithCache {
  /** Every article, drafts included, newest first; those in `pending` have no HTML yet (their converted values come from convertPending). */
  all: Article[];
  pending: Array<{ article: Article; key: string }>;
  /** The content hash of each source, by file. */
  keys: ReadonlyMap<string, string>;
  cache: MarkdownCache;
  /** Whether the cache file no longer matches what this build uses. */
  stale: boolean;
  /** What the images of each article that shows any were made from. */
  images: Map<Article, ArticleImageRecord>;
}

/** Parses articles, taking the front matter and HTML of files seen before from the cache. */
export async function parseWithCache(
  sources: readonly ArticleSource[],
  options: {
    now: Date;
    warn: (message: string) => void;
    limits?: ArticleLimits;
    cacheDir: string;
    imageDir: string;
    root: string;
    publicDir: string;
    contentDir: string;
    siteStamp: string;
    lazyHtml?: boolean;
    collection?: ParseOptions['collection'];
  },
): Promise<ParsedWithCache> {
  const cache = await openMarkdownCache(options.cacheDir, { root: options.root, lazy: options.lazyHtml === true });
  const keys = new Map<string, string>();
  const remembered = new Set<string>();
  const records = new Map<string, ArticleImageRecord>();
  const all = parseArticles(
    sources,
    {
      now: options.now,
      warn: options.warn,
      limits: options.limits,
      files: { root: options.root, publicDir: options.publicDir, contentDir: options.contentDir },
      collection: options.collection,
    },
    (source) => {
      // Images are found relative to the article's folder: the same text elsewhere is another article.
      const key = contentKey(`${source.file}\0${source.text}`, options.siteStamp);
      keys.set(source.file, key);
      const parts = cache.get(key);
      // An image it shows changed, or its processed images went: converted again.
      if (!parts || (parts.images && !imagesUnchanged(parts.images, options.imageDir, options.root))) return undefined;
      remembered.add(source.file);
      if (parts.images) records.set(source.file, parts.images);
      return parts;
    },
  );
  const pending = all
    .filter((article) => !remembered.has(article.file))
    .map((article) => ({ article, key: keys.get(article.file)! }));
  const images = new Map(
    all.flatMap((article) => (records.has(article.file) ? [[article, records.get(article.file)!] as const] : [])),
  );
  return {
    all,
    pending,
    keys,
    cache,
    images,
    stale: !cache.found || pending.length > 0 || remembered.size !== sources.length,
  };
}

/** An article as parsed (listed, handed to routes) and the value it became once converted. */
export type ConvertedPair = readonly [listed: Article, converted: Article];

/** What a helper is given to convert an article: its body, its file, and the line the body starts on. */
const conversionItem = (article: Article): ArticleToConvert => ({
  markdown: article.markdown,
  file: article.file,
  bodyLine: article.bodyLine ?? 1,
  ...(article.locale === undefined ? {} : { locale: article.locale }),
});

/** A problem of an article this run does not publish, as a warning: it stops a run that publishes it. */
function heldBackProblem(article: Article, problem: SsgError | SsgErrorList): string {
  const first = problem instanceof SsgErrorList ? problem.errors[0]! : problem;
  const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}` : article.file;
  const why = article.draft ? 'a draft' : 'dated in the future';
  return `${where}: ${first.message} (${why}, so not published now; a build that publishes it stops on this)`;
}

/**
 * Converts the pending articles' Markdown (their images with it) in the pool's helpers, each into a
 * new article value with its HTML, and fills the cache when there is one (dev's edits have none);
 * `onConverted` hears of each batch as it lands. Every article's problems are reported at once
 * when all are done, in file order.
 */
export function convertPending(
  parsed: Pick<ParsedWithCache, 'pending' | 'images'> & { cache?: MarkdownCache },
  pool: BatchConverter,
  options: {
    onConverted?: (pairs: ConvertedPair[]) => void;
    warn?: (message: string) => void;
    /** An article the run does not publish (a draft, a future post dev converts ahead): its problem is a warning. */
    heldBack?: (article: Article) => boolean;
  },
): Promise<void> {
  const { pending, cache } = parsed;
  if (pending.length === 0) return Promise.resolve();
  const failures: unknown[] = [];
  const items = pending.map(({ article }) => conversionItem(article));
  const done = pool
    .convert(items, (indexes, results) => {
      const converted = indexes.flatMap((index, position): ConvertedPair[] => {
        const item = pending[index]!;
        const result = results[position]!;
        if (result.error) {
          const problem = reviveProblem(result.error);
          if (options.heldBack?.(item.article) && options.warn) options.warn(heldBackProblem(item.article, problem));
          else failures.push(problem);
          return [];
        }
        const { html, removedHtml, images, headings, words } = result;
        const article = withHtml(item.article, result);
        if (images) parsed.images.set(article, images);
        if (options.warn) reportRemovedHtml(article, removedHtml, options.warn);
        cache?.set(item.key, {
          data: frontMatterOf(item.article),
          html,
          removedHtml,
          headings,
          words,
          ...(images ? { images } : {}),
        });
        return [[item.article, article]];
      });
      options.onConverted?.(converted);
    })
    .then(() => {
      if (failures.length > 0) throw mergeProblems(failures);
    });
  done.catch(() => {});
  return done;
}
