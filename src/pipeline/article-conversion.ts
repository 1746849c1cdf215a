// The conversion of a run's pending articles in helper processes, each admitted to the image stage
// as it lands, so that the pages showing it can render.
import type { Article } from '../content/article.ts';
import { convertPending, type ConvertedPair, type ParsedWithCache } from '../content/article-store.ts';
import { drawHere } from '../content/drawing.ts';
import type { SpareHelper } from '../pool/helper-process.ts';
import { createMarkdownPool, type MarkdownPool } from '../pool/markdown-pool.ts';
import type { Project } from '../project.ts';
import type { ImageStage } from './images.ts';
import type { Conversion, RunOptions } from './pipeline-types.ts';
import { articleConverter, type SiteMarkdown } from './site-markdown.ts';

/** What converts a run's articles, and with what. */
export interface ConversionSetup {
  images: ImageStage;
  markdown: SiteMarkdown;
  /** The site, whose drawers draw its generated files. */
  site?: { drawers?: unknown };
  /** A helper started before the run, for the pool to take (build). */
  spare?: SpareHelper;
  /** What converts the pending articles instead of a pool of this run's (dev's edits: its kept helper). */
  edits?: Pick<MarkdownPool, 'convert'>;
}

/**
 * Converts the pending articles in helper processes and admits each to the image stage as it
 * lands; the others (from the Markdown cache, or the last run) at once.
 */
export function startConversion(
  project: Project,
  parsed: Pick<ParsedWithCache, 'pending' | 'images'> & Partial<Pick<ParsedWithCache, 'cache' | 'stale'>>,
  articles: readonly Article[],
  setup: ConversionSetup,
  options: RunOptions,
): Conversion {
  const { pending } = parsed;
  const { images, markdown, edits } = setup;
  const waiting = new Set(pending.map((item) => item.article));
  const published = new Set(articles);
  let convertedSoFar = 0;
  // Each listed article (as the routes hold it) and its converted value, once its images are ready too.
  const ready = new Map<Article, Article>();
  const converted = new Set<Article>();
  let listener: (articles: Article[]) => void = () => {};
  const admit = (pairs: readonly ConvertedPair[]) => {
    const listedOf = new Map(pairs.map(([listed, converted]) => [converted, listed]));
    images.admit(
      pairs.map(([, article]) => ({ article, images: parsed.images.get(article) })),
      (imagesDone) => {
        const listed = imagesDone.map((article) => listedOf.get(article)!);
        imagesDone.forEach((article, index) => {
          ready.set(listed[index]!, article);
          converted.add(article);
        });
        listener(listed);
      },
    );
  };
  admit(articles.filter((article) => !waiting.has(article)).map((article) => [article, article] as const));
  // The helpers convert, and draw the site's files when it has drawers and many to draw.
  const drawers = (setup.site?.drawers ?? undefined) as Parameters<typeof drawHere>[0];
  const here = setup.site ? drawHere(drawers, project.root) : undefined;
  const pool = createMarkdownPool({
    cacheDir: project.cacheDir,
    converter: articleConverter(images, markdown),
    interrupts: options.interrupts,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(setup.spare ? { spare: setup.spare } : {}),
    ...(here && markdown.drawModule ? { drawing: { siteModule: markdown.drawModule, root: project.root, here } } : {}),
  });
  const conversion =
    parsed.cache || edits
      ? convertPending(parsed, edits ?? pool, {
          warn: options.warn,
          heldBack: (article) => !published.has(article),
          onConverted: (done) => {
            options.onProgress?.((convertedSoFar += done.length), waiting.size);
            admit(done.filter(([listed]) => published.has(listed)));
          },
        })
      : Promise.resolve();
  const done = conversion.then(() => images.settle());
  done.catch(() => {}); // reported where it is awaited
  // The Markdown cache keeps what was converted once all is, or once the conversion ended early
  // (a check failed): this stage's own side job, awaited when the conversion is closed.
  const keeping = done
    .catch(() => {})
    .then(() => (parsed.stale ? parsed.cache?.save() : undefined))
    .catch(() => {});
  const draw = here && (markdown.drawModule ? pool.draw : here);
  return {
    done,
    close: async () => {
      await pool.close();
      await keeping;
    },
    release: () => pool.release(),
    ready,
    converted,
    converting: pending.length,
    listen: (next) => (listener = next),
    ...(draw ? { draw } : {}),
  };
}
