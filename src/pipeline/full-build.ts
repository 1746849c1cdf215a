// `build`'s strategy for the one pipeline (pipeline.ts), run once with everything changed: one-shot
// bundles from their cache, pages from the page cache while nothing they read changed, files
// written into a staging folder as they are made and swapped in at once, text files precompressed.
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { isPublished, type Article } from '../content/article.ts';
import { removeAbandonedTemporaries } from '../cache/store.ts';
import { openCompressedCache, type CompressedCache } from '../output/precompress.ts';
import { createStagedOutput } from '../output/output.ts';
import { type OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import type { Interrupts } from '../base/interrupt.ts';
import { openPageCache, type PageCache, type PageMeasures } from '../render/page-cache.ts';
import type { PageJob } from '../render/routes.ts';
import { createImageStage, type ImageStage } from './images.ts';
import { oneShotBundler } from './bundlers.ts';
import { createSiteModuleCopies } from './site-markdown.ts';
import { runPipeline, type Inputs, type Output, type PageSource, type State, type Strategy } from './pipeline.ts';
import { manifestFileOf, saveUnchangedRecord, validUntil } from './unchanged.ts';
import type { BuildOptions, BuildResult, PageSizes } from './build-result.ts';
import { startSpareHelper } from '../pool/helper-process.ts';
import { featureCaches } from './features.ts';
import { translationsOf } from '../render/i18n.ts';

/** What every page depends on, for the page cache: a change to any of it renders every page again. */
function pageCacheInputs(project: Project, inputs: Inputs, options: BuildOptions & { now: Date }) {
  const { client, settings, shell } = inputs;
  return {
    cacheDir: project.cacheDir,
    shared: [
      inputs.server.code,
      JSON.stringify([
        shell,
        client.assets.map((asset) => asset.path),
        client.loaderUrl,
        client.styleUrl,
        settings.baseUrl,
        settings.meta,
        settings.feeds,
        Boolean(options.drafts),
        Boolean(options.future),
      ]),
    ],
    now: options.now,
    articles: inputs.articles,
    keys: inputs.articleKeys ?? new Map(),
    data: settings.data,
  };
}

/** Pages whose every input is as in the last build come from the page cache, unrendered; each page is measured. */
function cachedPages(
  project: Project,
  inputs: Inputs,
  options: BuildOptions & { now: Date },
  images: ImageStage,
  sizes: Map<PageJob, PageSizes>,
  written: (file: string) => string | undefined,
) {
  const { client } = inputs;
  const pageCache = openPageCache(pageCacheInputs(project, inputs, options));
  // The jobs asked about hold the articles as converted.
  const known = inputs.conversion.converted as ReadonlySet<unknown>;
  const entryKey = (job: PageJob) =>
    JSON.stringify([job.path, job.params, job.entry, ...translationsOf(job)], (_, value) =>
      known.has(value) ? `article:${(value as Article).file}:${images.signature(value as Article)}` : value,
    );
  const keys = new Map<PageJob, string>();
  const measured = new Map<PageJob, PageMeasures>();
  const source: PageSource = {
    dropsHtml: true,
    earlier(job) {
      const key = entryKey(job);
      keys.set(job, key);
      const page = pageCache.get(job.outputPath, key, job.path);
      if (!page) return undefined;
      measured.set(job, page.measures);
      return Object.defineProperty(
        { hash: page.hash, islands: page.islands, reads: undefined, ...(page.links ? { links: page.links } : {}) },
        'html',
        { get: () => page.html, enumerable: true },
      ) as ReturnType<PageSource['earlier']>;
    },
    sameAsBefore(job, hash) {
      const page = pageCache.sameAs(job.outputPath, keys.get(job)!, hash, job.path);
      if (!page?.links) return undefined;
      measured.set(job, page.measures);
      return page.links;
    },
    made(page, fresh) {
      const { job, islands } = page;
      // Measured from the HTML once: a page rendered again to the same bytes is measured as then.
      const measures = measured.get(job) ?? {
        htmlBytes: Buffer.byteLength(page.html),
        firstPaintScripts: client.firstPaintScripts(page.html),
      };
      // The page as written into the staging folder becomes its cache entry by a second name.
      if (fresh)
        pageCache.set(
          job.outputPath,
          keys.get(job)!,
          { html: page.html, hash: page.hash, islands, links: page.links, measures },
          page.reads!,
          written(job.outputPath),
        );
      const sum = (urls: string[]) => urls.reduce((total, url) => total + client.gzipSize(url), 0);
      const assets = client.assetsFor(islands);
      sizes.set(job, {
        route: job.path,
        pattern: job.route.path,
        htmlBytes: measures.htmlBytes,
        firstPaintJsGzip: sum(measures.firstPaintScripts),
        jsGzip: sum(assets.js),
        cssGzip: sum(assets.css),
      });
    },
  };
  return { pageCache, source };
}

/** A staging folder swapped in at the end; the text assets and site files get precompressed siblings. */
async function stagedOutput(
  project: Project,
  outDir: string,
  compressed: CompressedCache,
  interrupts: Interrupts | undefined,
): Promise<Output<boolean>> {
  const staged = await createStagedOutput(outDir, project.publicDir, {
    manifestFile: manifestFileOf(project, outDir),
    interrupts,
  });
  const compressing: Array<Promise<OutputFile[]>> = [];
  /** Siblings started by `prepare`, by path, with the contents they are of. */
  const prepared = new Map<string, { contents: OutputFile['contents']; siblings: Promise<OutputFile[]> }>();
  const siblingsOf = (file: OutputFile) => {
    const early = prepared.get(file.path);
    const siblings = early?.contents === file.contents ? early.siblings : compressed.compress([file]);
    siblings.catch(() => {}); // reported at commit
    return siblings;
  };
  return {
    write(file, compress) {
      staged.write(file);
      if (compress) compressing.push(siblingsOf(file));
    },
    prepare(file) {
      prepared.set(file.path, { contents: file.contents, siblings: siblingsOf(file) });
    },
    async commit() {
      for (const file of (await Promise.all(compressing)).flat()) staged.write(file);
      return staged.commit();
    },
    async abort() {
      // Compression under way runs on libuv's threads and would hold the process after the failure is said.
      await Promise.allSettled([...compressing, ...[...prepared.values()].map(({ siblings }) => siblings)]);
      await staged.abort();
    },
    carries: (file, hash) => staged.carries(file, hash),
    pathOf: (file) => staged.pathOf(file),
  };
}

/** When the site changes next with no input changed: an article held back for its date comes due, or every build for an undated one. */
function dueTimes(state: State, options: BuildOptions, now: Date): number[] {
  const read = [...state.byFile.values()];
  if (read.some((article) => typeof article.data.date !== 'string')) return [now.getTime()];
  const publish = { drafts: options.drafts, future: options.future, now };
  return read.flatMap((article) =>
    isPublished(article, publish) || (article.draft && !options.drafts) ? [] : [Date.parse(article.date)],
  );
}

/** Keeps the caches for the next build, once the site is in place; never fails the build. */
async function keepCaches(
  project: Project,
  pageCache: PageCache | undefined,
  compressed: CompressedCache,
  images: ImageStage,
  checkedFiles: ReadonlySet<string> | undefined,
  keepFeatures: () => void,
): Promise<void> {
  try {
    await pageCache?.save(checkedFiles);
  } catch {
    // Not kept: the next build renders every page.
  }
  keepFeatures();
  compressed.prune();
  images.prune();
  // What writers killed mid-entry left (the images' and compressed folders clean their own).
  for (const folder of ['.', 'bundles', 'markdown', 'pages', 'generated'])
    removeAbandonedTemporaries(path.join(project.cacheDir, folder));
}

/**
 * Builds the site in full into `outDir` (locked and checked by `build`): the pipeline's first run,
 * each stage taking what it can from the caches. `stamp` names the inputs, for the next build to
 * tell it has nothing to do. `lazyHtml`: articles' HTML is read from the Markdown cache only when
 * a page shows it (false: with the articles, for the second try after such a read failed).
 */
export async function buildInto(
  project: Project,
  outDir: string,
  options: BuildOptions,
  started: number,
  stamp: string | undefined,
  { lazyHtml = true } = {},
): Promise<BuildResult> {
  const startedAt = Date.now();
  const now = options.now ?? new Date();
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const images = createImageStage(project, { started: Date.now() });
  const compressed = openCompressedCache(project.cacheDir);
  const sizes = new Map<PageJob, PageSizes>();
  let pageCache: PageCache | undefined;
  let output: Output<boolean> | undefined;
  /** The files the link check saw, kept with the pages: the next build looks only at links that may lead elsewhere now. */
  let checkedFiles: ReadonlySet<string> | undefined;
  // Something changed (else `build` found nothing to do): a helper starts loading now, while the
  // inputs are read, for the articles to convert.
  const spare = startSpareHelper({
    cacheDir: project.cacheDir,
    interrupts: options.interrupts,
    limits: options.limits,
  });
  const moduleCopies = createSiteModuleCopies(project.cacheDir);
  const features = featureCaches(project.cacheDir);
  const strategy: Strategy<boolean> = {
    bundler: oneShotBundler(project, outDir),
    // An article's HTML is read from the Markdown cache only when a page shows it.
    articles: { images, moduleCopies, convertHeldBack: false, lazyHtml, spare },
    pages(inputs) {
      const cached = cachedPages(project, inputs, { ...options, now }, images, sizes, (file) => output?.pathOf?.(file));
      pageCache = cached.pageCache;
      return cached.source;
    },
    openOutput: async () => (output = await stagedOutput(project, outDir, compressed, options.interrupts)),
    links: () => ({ previousFiles: pageCache?.previousFiles, checked: (files) => (checkedFiles = files) }),
    features: { earlier: features.read, whenAsked: false, heldBetweenRuns: false },
  };
  const run = await runPipeline(project, strategy, undefined, new Map(), { ...options, now, warn }).finally(() => {
    spare.end();
    moduleCopies.dispose();
  });
  const { state, inputs, timings } = run;
  await keepCaches(project, pageCache, compressed, images, checkedFiles, () => features.keep(state.featuresMade));
  const report = { pages: state.jobs.map((job) => sizes.get(job)!), articles: state.articles.length, warnings };
  if (stamp) {
    // What MDX articles import may live outside the folders the stamp covers.
    const imported = state.articles.flatMap((article) => images.sources(article));
    const sources = [...state.server.sources, ...state.client.sources, ...imported];
    saveUnchangedRecord(project, outDir, startedAt, {
      stamp,
      builtAt: now.getTime(),
      validUntil: validUntil(now, dueTimes(state, options, now)),
      sources,
      report,
    });
  }
  const converted = inputs.conversion.converting;
  return {
    outDir,
    pages: report.pages,
    articles: state.articles.length,
    markdown: { cached: state.articles.length - converted, converted },
    timings,
    durationMs: performance.now() - started,
    unchanged: !run.written,
  };
}
