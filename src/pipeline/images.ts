// The image stage `build` and dev share, through one image cache. The Markdown processor puts
// article images in the HTML (rehypeArticleImages); this stage gives it the image context, gathers
// each admitted article's image files, and hands the site's own images to pages as data.
import path from 'node:path';
import type { Article } from '../content/article.ts';
import type { ServerModule } from '../bundle/bundle-server.ts';
import { mergeProblems } from '../errors/errors.ts';
import type { OutputFile } from '../output/output-file.ts';
import { ASSETS_DIR, type Project } from '../project.ts';
import { readImageFile, type ArticleImageRecord } from '../images/article-images.ts';
import { imageCacheDir, openImageCache, type ImageCache } from '../images/image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS, sharpVersion } from '../images/process.ts';
import { addSiteImages } from '../images/site-images.ts';
import { ARTICLE_IMAGE_SIZES } from '../images/stage.ts';

/** An article and what its images were made from, as its conversion (or the Markdown cache) says. */
export interface AdmittedArticle {
  article: Article;
  images?: ArticleImageRecord;
}

/** The files one article's images need: processed variants from the image cache, SVGs as they are. */
async function filesOf(record: ArticleImageRecord, cache: ImageCache, root: string): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const { file: shownAs, entry, path: outputPath } of record.shown) {
    const file = path.resolve(root, shownAs);
    if (outputPath !== undefined) {
      files.push({ path: outputPath, contents: await readImageFile(file, shownAs) });
      continue;
    }
    // Pruned or damaged since the conversion: made again from its file.
    const image =
      (entry && (await cache.load(entry))) || (await cache.process(await readImageFile(file, shownAs), shownAs));
    for (const variant of image.variants) files.push({ path: variant.path, contents: variant.contents });
  }
  return files;
}

function recordSignature(record: ArticleImageRecord | undefined): string {
  return record ? JSON.stringify([record.shown, record.sources.map((source) => source.sha256)]) : '""';
}

function filesOnce(articles: readonly Article[], outputOf: WeakMap<Article, OutputFile[]>): OutputFile[] {
  const byPath = new Map<string, OutputFile>();
  for (const article of articles) for (const file of outputOf.get(article) ?? []) byPath.set(file.path, file);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** One cache for a build, or for a dev session: `started` lets a build prune what it did not use. */
export function createImageStage(project: Project, options: { started?: number } = {}) {
  const cache = openImageCache({
    cacheDir: project.cacheDir,
    settings: DEFAULT_IMAGE_SETTINGS,
    assetsDir: ASSETS_DIR,
    started: options.started,
  });
  const folders = { root: project.root, contentDir: project.contentDir, publicDir: project.publicDir };
  const recordOf = new WeakMap<Article, ArticleImageRecord>();
  const outputOf = new WeakMap<Article, OutputFile[]>();
  const entriesOf = new WeakMap<Article | readonly OutputFile[], ReadonlySet<string>>();
  const pending: Array<Promise<void>> = [];

  const load = async (article: Article, record: ArticleImageRecord) => {
    outputOf.set(article, await filesOf(record, cache, project.root));
    entriesOf.set(article, new Set(record.shown.flatMap((item) => (item.entry ? [item.entry] : []))));
  };

  return {
    cache,
    /** Where the processed images are kept: a conversion taken from the Markdown cache needs them there. */
    cacheDir: imageCacheDir(project.cacheDir),
    /** The same for a helper process, as plain data: it opens the cache itself. */
    helperSettings: {
      ...folders,
      cacheDir: project.cacheDir,
      assetsDir: ASSETS_DIR,
      sizes: ARTICLE_IMAGE_SIZES,
      imageProcessor: sharpVersion(),
    },
    /** `onReady` hears of the articles that can render: at once those that show no image, the others once their files are gathered. */
    admit(admitted: readonly AdmittedArticle[], onReady: (articles: Article[]) => void): void {
      const plain: Article[] = [];
      const shown: AdmittedArticle[] = [];
      for (const item of admitted) {
        if (item.images && recordOf.get(item.article) !== item.images) {
          recordOf.set(item.article, item.images);
          shown.push(item);
        } else plain.push(item.article);
      }
      if (plain.length > 0) onReady(plain);
      if (shown.length === 0) return;
      const job = Promise.allSettled(shown.map((item) => load(item.article, item.images!))).then((results) => {
        throwFailures(results);
        onReady(shown.map((item) => item.article));
      });
      job.catch(() => {}); // reported by settle()
      pending.push(job);
    },
    /** Waits for every admitted article; rejects with every image problem found. */
    settle: async (): Promise<void> => throwFailures(await Promise.allSettled(pending.splice(0))),
    /** The files of these articles' images, once each (two articles may show one image). */
    files: (articles: readonly Article[]): OutputFile[] => filesOnce(articles, outputOf),
    /**
     * Changes when an article's images do, or a module an MDX article imports: part of its page's
     * cache key (the files' bytes, not their times).
     */
    signature: (article: Article): string => recordSignature(recordOf.get(article)),
    /** The image files (absolute) an article's images were read from: what it depends on besides its Markdown. */
    sources: (article: Article): readonly string[] =>
      recordOf.get(article)?.sources.map((source) => path.resolve(project.root, source.file)) ?? [],
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
      cache.pruneExcept(
        new Set([siteImages, ...articles].flatMap((owner) => [...(entriesOf.get(owner) ?? [])])),
        since,
      );
    },
  };
}

export type ImageStage = ReturnType<typeof createImageStage>;

/** Throws the problems of the jobs that failed, as one report, if any did. */
function throwFailures(results: ReadonlyArray<PromiseSettledResult<void>>): void {
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length > 0) throw mergeProblems(failures);
}
