// The image stage `build` and dev mode share: article images checked, processed and written into
// each article's HTML, the site's own images handed to pages as data, through one image cache.
// The pipeline admits articles as they are converted (all at once when nothing converts): those
// whose images are not processed yet are, one article at a time.
import { createHash } from 'node:crypto';
import type { Article } from '../content/articles.ts';
import type { ServerModule } from '../bundle/bundle-server.ts';
import { SsgError, SsgErrorList } from '../errors.ts';
import type { OutputFile } from '../output/output.ts';
import { ASSETS_DIR, type Project } from '../project.ts';
import { markdownHtml, processArticleImages } from '../images/article-images.ts';
import { openImageCache } from '../images/image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS } from '../images/process.ts';
import { addSiteImages } from '../images/site-images.ts';
import { ARTICLE_IMAGE_SIZES } from '../images/stage.ts';

/** Whether the article's Markdown shows an image: only those wait for the image stage. */
export const showsImages = (article: Article): boolean => markdownHtml(article).includes('<img');

/** One cache for a build, or for a dev session: `started` lets a build prune what it did not use. */
export function createImageStage(project: Project, options: { started?: number } = {}) {
  const cache = openImageCache({ cacheDir: project.cacheDir, settings: DEFAULT_IMAGE_SETTINGS, assetsDir: ASSETS_DIR, started: options.started });
  const imageOptions = { root: project.root, articlesDir: project.articlesDir, publicDir: project.publicDir, cache, assetsDir: ASSETS_DIR, sizes: ARTICLE_IMAGE_SIZES };
  const filesOf = new WeakMap<Article, OutputFile[]>();
  const signatures = new WeakMap<Article, string>();
  /** The image files each article read, and the cache entries its images came from. */
  const sourcesOf = new WeakMap<Article, readonly string[]>();
  const entriesOf = new WeakMap<Article | readonly OutputFile[], ReadonlySet<string>>();

  /** One article's images, the cache entries they use noted. */
  async function processOne(article: Article): Promise<void> {
    const entries = new Set<string>();
    const { files, sources } = await processArticleImages([article], { ...imageOptions, cache: cache.recording(entries) });
    filesOf.set(article, files);
    sourcesOf.set(article, sources);
    entriesOf.set(article, entries);
    signatures.set(article, createHash('sha1').update(article.html).digest('base64'));
  }

  // Articles looked at and found to show no image: a dev rebuild does not search their HTML again.
  const showsNone = new WeakSet<Article>();
  const needsImages = (article: Article) => {
    if (filesOf.has(article) || showsNone.has(article)) return false;
    if (showsImages(article)) return true;
    showsNone.add(article);
    return false;
  };

  /** Processes the images of each article not yet done; every problem of every article at once. */
  async function processEach(articles: readonly Article[]): Promise<void> {
    throwFailures(await Promise.allSettled(articles.filter(needsImages).map(processOne)));
  }

  const pending: Array<Promise<void>> = [];
  return {
    cache,
    /** `onReady` hears of the articles that can render: at once those that show no image or whose images are done. */
    admit(articles: Article[], onReady: (articles: Article[]) => void): void {
      const shown = articles.filter(needsImages);
      const waiting = new Set(shown);
      const plain = shown.length === 0 ? articles : articles.filter((article) => !waiting.has(article));
      if (plain.length > 0) onReady(plain);
      if (shown.length === 0) return;
      const job = processEach(shown).then(() => onReady(shown));
      job.catch(() => {}); // reported by settle()
      pending.push(job);
    },
    /** Waits for every admitted article; rejects with every image problem found. */
    async settle(): Promise<void> {
      throwFailures(await Promise.allSettled(pending.splice(0)));
    },
    /** The processed files of these articles, once each (two articles may show one image). */
    files(articles: readonly Article[]): OutputFile[] {
      const byPath = new Map<string, OutputFile>();
      for (const article of articles) for (const file of filesOf.get(article) ?? []) byPath.set(file.path, file);
      return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    },
    /** Changes when an article's images do: part of its page's cache key. */
    signature: (article: Article): string => signatures.get(article) ?? '',
    /** The image files (absolute) an article's images were read from: what it depends on besides its Markdown. */
    sources: (article: Article): readonly string[] => sourcesOf.get(article) ?? [],
    /** The site's own images (team photos, share image), processed into `data.images`. */
    async siteImages(server: ServerModule, data: Record<string, unknown>): Promise<OutputFile[]> {
      const entries = new Set<string>();
      const files = await addSiteImages(project, server.site, data, ASSETS_DIR, cache.recording(entries));
      entriesOf.set(files, entries);
      return files;
    },
    /** Build: removes the entries this build did not use. */
    prune: () => cache.prune(),
    /** Dev: removes the entries neither these articles' images nor these site images use, those written since `since` spared. */
    pruneUnused(articles: readonly Article[], siteImages: readonly OutputFile[], since: number): void {
      cache.pruneExcept(new Set([siteImages, ...articles].flatMap((owner) => [...(entriesOf.get(owner) ?? [])])), since);
    },
  };
}

export type ImageStage = ReturnType<typeof createImageStage>;

/** Throws the problems of the jobs that failed, as one report, if any did. */
function throwFailures(results: ReadonlyArray<PromiseSettledResult<void>>): void {
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length > 0) throw mergeFailures(failures);
}

/**
 * The problems of every article as one report, in file order whatever order they were processed
 * in (build admits articles as they are converted); anything unexpected wins, as it is a bug.
 */
function mergeFailures(failures: unknown[]): unknown {
  const unexpected = failures.find((failure) => !(failure instanceof SsgError || failure instanceof SsgErrorList));
  if (unexpected) return unexpected;
  const errors = failures.flatMap((failure) => (failure instanceof SsgErrorList ? failure.errors : [failure as SsgError]));
  const sorted = errors.map((error, index) => ({ error, index })).sort((a, b) => ((a.error.file ?? '') < (b.error.file ?? '') ? -1 : (a.error.file ?? '') > (b.error.file ?? '') ? 1 : a.index - b.index));
  const unique = [...new Set(sorted.map((item) => item.error))];
  return unique.length === 1 ? unique[0] : new SsgErrorList(unique);
}
