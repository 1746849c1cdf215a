import { existsSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Article } from '../articles.ts';
import { SsgError, SsgErrorList } from '../errors.ts';
import type { OutputFile } from '../output.ts';
import type { Project } from '../project.ts';
import { markdownHtml, processArticleImages } from './article-images.ts';
import { openImageCache } from './image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS } from './process.ts';

/** Article images are shown at most as wide as the article column (46rem), else across the screen. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 46rem) 46rem, 100vw';

/**
 * The image stage of one build: articles are handed in as their Markdown is converted; those that
 * show no image are ready at once, the others once their images are processed and their HTML
 * rewritten. `files()` gives what to write (and fails with every image problem found).
 */
export function createArticleImageStage(project: Project, options: { assetsDir: string; started?: number }) {
  const cache = openImageCache({ cacheDir: project.cacheDir, settings: DEFAULT_IMAGE_SETTINGS, assetsDir: options.assetsDir, started: options.started });
  const imageOptions = { root: project.root, articlesDir: project.articlesDir, publicDir: project.publicDir, cache, assetsDir: options.assetsDir, sizes: ARTICLE_IMAGE_SIZES };
  const jobs: Array<Promise<OutputFile[]>> = [];
  const signatures = new WeakMap<Article, string>();
  return {
    /** Calls `onReady` with the articles that can render: at once for those without images. */
    admit(articles: Article[], onReady: (articles: Article[]) => void): void {
      const plain = articles.filter((article) => !markdownHtml(article).includes('<img'));
      const shown = articles.filter((article) => markdownHtml(article).includes('<img'));
      if (plain.length > 0) onReady(plain);
      if (shown.length === 0) return;
      const job = processArticleImages(shown, imageOptions).then((files) => {
        for (const article of shown) signatures.set(article, createHash('sha1').update(article.html).digest('base64'));
        onReady(shown);
        return files;
      });
      job.catch(() => {}); // reported by files()
      jobs.push(job);
    },
    /** Every processed file, once all admitted articles are done; rejects with the first failure. */
    async files(): Promise<OutputFile[]> {
      const results = await Promise.allSettled(jobs);
      const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
      if (failures.length > 0) throw mergeFailures(failures);
      const byPath = new Map<string, OutputFile>();
      for (const result of results) for (const file of (result as PromiseFulfilledResult<OutputFile[]>).value) byPath.set(file.path, file);
      return [...byPath.values()];
    },
    /** Changes when an article's images do: part of its page's cache key. */
    signature: (article: Article): string => signatures.get(article) ?? '',
    counts: cache.counts,
    /** The cache, shared with the site's own images so that pruning keeps their entries. */
    cache,
    prune: () => cache.prune(),
  };
}

/** The problems of every batch as one report; anything unexpected wins, as it is a bug. */
function mergeFailures(failures: unknown[]): unknown {
  const unexpected = failures.find((failure) => !(failure instanceof SsgError || failure instanceof SsgErrorList));
  if (unexpected) return unexpected;
  const errors = failures.flatMap((failure) => (failure instanceof SsgErrorList ? failure.errors : [failure as SsgError]));
  return errors.length === 1 ? errors[0] : new SsgErrorList(errors);
}

/**
 * Dev mode's hook (issue 12): processes the images of the articles given (all at start, the
 * edited ones later) and rewrites their HTML, returning the files to write. Same checks as a build.
 */
export function createDevArticleImages(project: Project, assetsDir: string) {
  const cache = openImageCache({ cacheDir: project.cacheDir, settings: DEFAULT_IMAGE_SETTINGS, assetsDir });
  const imageOptions = { root: project.root, articlesDir: project.articlesDir, publicDir: project.publicDir, cache, assetsDir, sizes: ARTICLE_IMAGE_SIZES };
  return (articles: readonly Article[]): Promise<OutputFile[]> => processArticleImages(articles, imageOptions);
}

/**
 * The article an image in a page bundle belongs to (`news/x/chart.png` → `news/x/index.md`), so
 * that dev mode renders it again when the image changes; undefined for anything else.
 */
export function bundleArticleOf(file: string, articlesDir: string): string | undefined {
  if (!file.startsWith(articlesDir + path.sep) || !/\.(png|jpe?g|webp|avif|gif|tiff?|svg)$/i.test(file)) return undefined;
  const index = path.join(path.dirname(file), 'index.md');
  return existsSync(index) ? index : undefined;
}
