// The full pipeline of `build`: inputs read and bundled, articles converted in helper processes,
// pages rendered as their articles are ready, files drawn and checked, everything staged and swapped
// in at once. Dev mode runs the same stages (stages.ts) on what changed.
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { isPublished, readArticleSources, type Article } from '../content/articles.ts';
import { bundleClient, type ClientBundle } from '../bundle/bundle-client.ts';
import { bundleServer, type ServerBundle } from '../bundle/bundle-server.ts';
import { readDataFiles, type DataFile } from '../content/data.ts';
import { removeAbandonedTemporaries } from '../cache/store.ts';
import { openCompressedCache } from '../output/precompress.ts';
import { convertPending, parseWithCache, type ParsedWithCache } from '../content/article-store.ts';
import { createStagedOutput, type OutputFile, type StagedOutput } from '../output/output.ts';
import { ASSETS_DIR, type Project } from '../project.ts';
import { emptyReads } from '../render/dependencies.ts';
import { SsgError } from '../errors.ts';
import type { CheckedPage } from '../render/links.ts';
import { openPageCache, type PageCache } from '../render/page-cache.ts';
import { renderDocument, type RenderContext } from '../render/render.ts';
import { expandRoutes, type PageJob } from '../render/routes.ts';
import { loadTemplate, type DocumentShell } from '../render/template.ts';
import {
  checkPublicClashes,
  checkSiteOutput,
  drawnFiles,
  entryArticles,
  inOrder,
  generatedFiles,
  publishArticles,
  renderContext,
  siteSettings,
  sourceFileOf,
  type SiteSettings,
} from './stages.ts';
import { createImageStage, type ImageStage } from './images.ts';
import { manifestFileOf, saveUnchangedRecord, validUntil } from './unchanged.ts';
import type { BuildOptions, BuildResult, PageSizes } from './build-result.ts';

export function assetFiles(client: ClientBundle): OutputFile[] {
  return client.assets.map((asset) => ({ path: asset.path, contents: asset.contents }));
}

function timer() {
  const timings: Record<string, number> = {};
  let last = performance.now();
  return {
    timings,
    lap(stage: string) {
      const now = performance.now();
      timings[stage] = (timings[stage] ?? 0) + now - last;
      last = now;
    },
  };
}

type BuildInputs = [DocumentShell, DataFile[], ServerBundle, ClientBundle];

/**
 * The template, data files and both bundles: esbuild works in its own process meanwhile. When
 * several fail, the first in this order is reported (as dev mode orders them), not the fastest.
 */
function startInputs(project: Project, outDir: string): Promise<BuildInputs> {
  const inputs = inOrder<BuildInputs>([
    loadTemplate(project.template, path.relative(project.root, project.template)),
    readDataFiles(project.root, project.contentDir),
    bundleServer(project),
    bundleClient(project, path.join(outDir, ASSETS_DIR)),
  ]);
  inputs.catch(() => {}); // reported where it is awaited
  return inputs;
}

/** Every article; files seen in an earlier build skip their YAML and Markdown (both cached). Articles held back are not converted. */
async function loadArticles(project: Project, options: BuildOptions, now: Date, warn: (message: string) => void) {
  const sources = await readArticleSources(project.root, project.articlesDir, warn);
  const parsed = await parseWithCache(sources, { now, warn, cacheDir: project.cacheDir });
  const publish = { drafts: options.drafts, future: options.future, now };
  const articles = publishArticles(new Map(parsed.all.map((article) => [article.file, article])), publish);
  parsed.pending = parsed.pending.filter((item) => isPublished(item.article, publish));
  // When each article held back for its date is due: the site changes then, inputs or not. An
  // article without a date is dated by the build itself: every build makes another site.
  const read = parsed.all.filter((article): article is Article => !(article instanceof SsgError));
  const due = read.some((article) => typeof article.data.date !== 'string')
    ? [now.getTime()]
    : read.flatMap((article) => (isPublished(article, publish) || (article.draft && !options.drafts) ? [] : [Date.parse(article.date)]));
  return { parsed, articles, due };
}


/**
 * Converts the pending articles in helper processes; an article is ready once converted and its
 * images processed (at once when it shows none). `listen` hears of each batch as it gets ready.
 */
function startConversion(
  project: Project,
  parsed: ParsedWithCache,
  articles: readonly Article[],
  images: ImageStage,
  options: { warn: (message: string) => void; onProgress?: BuildOptions['onProgress'] },
) {
  const waiting = new Set(parsed.pending.map((item) => item.article));
  let convertedSoFar = 0;
  const ready = new Set<Article>();
  let listener: (articles: Article[]) => void = () => {};
  const admit = (done: Article[]) =>
    images.admit(done, (imagesDone) => {
      for (const article of imagesDone) ready.add(article);
      listener(imagesDone);
    });
  admit(articles.filter((article) => !waiting.has(article)));
  const conversion = convertPending(parsed, {
    cacheDir: project.cacheDir,
    warn: options.warn,
    onConverted: (done) => {
      options.onProgress?.((convertedSoFar += done.length), waiting.size);
      admit(done);
    },
  });
  const done = conversion.done.then(() => images.settle());
  done.catch(() => {}); // reported where it is awaited
  return { ...conversion, done, ready, listen: (next: (articles: Article[]) => void) => (listener = next) };
}

/**
 * Renders a page (or takes it from the page cache), writes it and measures it. A page that fails
 * is remembered, and the first in route order is reported, as dev mode reports it.
 */
function createPageRenderer(context: RenderContext, pageCache: PageCache, output: StagedOutput, jobs: readonly PageJob[], images: ImageStage) {
  const known = new Set(context.articles);
  const order = new Map(jobs.map((job, index) => [job, index]));
  const entryKey = (job: PageJob) =>
    JSON.stringify([job.path, job.params, job.entry], (_, value) => (known.has(value) ? `article:${(value as Article).file}:${images.signature(value as Article)}` : value));
  const documents = new Map<PageJob, CheckedPage>();
  const sizes = new Map<PageJob, PageSizes>();
  const failures = new Map<number, unknown>();
  const { client } = context;
  const renderOne = (job: PageJob) => {
    const key = entryKey(job);
    let document = pageCache.get(job.outputPath, key);
    if (!document) {
      const reads = emptyReads();
      document = renderDocument(job, context, reads);
      pageCache.set(job.outputPath, key, document, reads);
    }
    documents.set(job, { path: job.path, html: document.html, file: sourceFileOf(job, known) });
    const contents = Buffer.from(document.html);
    output.write({ path: job.outputPath, contents });
    const assets = client.assetsFor(document.islands);
    const sum = (urls: string[]) => urls.reduce((total, url) => total + client.gzipSize(url), 0);
    const firstPaintJsGzip = sum(client.firstPaintScripts(document.html));
    sizes.set(job, { route: job.path, pattern: job.route.path, htmlBytes: contents.length, firstPaintJsGzip, jsGzip: sum(assets.js), cssGzip: sum(assets.css) });
  };
  return {
    /** The pages in route order, as dev mode checks them (whatever order they were rendered in). */
    documents: () => jobs.flatMap((job) => documents.get(job) ?? []),
    sizes,
    render(job: PageJob) {
      if (sizes.has(job) || failures.has(order.get(job)!)) return;
      try {
        renderOne(job);
      } catch (error) {
        failures.set(order.get(job)!, error);
      }
    },
    throwFirstFailure() {
      if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
    },
  };
}

/**
 * Pages that were handed their articles render as soon as those are converted; every other page
 * (a list may read any article) once all are.
 */
async function renderAsConverted(
  jobs: readonly PageJob[],
  known: ReadonlySet<Article>,
  conversion: ReturnType<typeof startConversion>,
  render: (job: PageJob) => void,
): Promise<void> {
  const isReady = (job: PageJob) => entryArticles(job, known).every((article) => conversion.ready.has(article));
  const waitingOn = new Map<Article, PageJob[]>();
  const later: PageJob[] = [];
  for (const job of jobs) {
    const needs = entryArticles(job, known);
    if (needs.length === 0) later.push(job);
    else if (isReady(job)) render(job);
    else for (const article of needs) waitingOn.set(article, [...(waitingOn.get(article) ?? []), job]);
  }
  conversion.listen((done) => {
    for (const article of done) {
      for (const job of waitingOn.get(article) ?? []) if (isReady(job)) render(job);
      waitingOn.delete(article);
    }
  });
  await conversion.done;
  await conversion.close();
  for (const job of later) render(job);
}

/** Pages whose every input is as in the last build come from the page cache, unrendered. */
function pageCacheFor(project: Project, context: RenderContext, server: ServerBundle, settings: SiteSettings, parsed: ParsedWithCache, options: BuildOptions) {
  const { client, shell, baseUrl, meta } = context;
  return openPageCache({
    cacheDir: project.cacheDir,
    shared: [
      server.code,
      JSON.stringify([shell, client.assets.map((asset) => asset.path), client.loaderUrl, client.styleUrl, baseUrl, meta, settings.feed, Boolean(options.drafts), Boolean(options.future)]),
    ],
    now: context.now,
    articles: context.articles,
    keys: parsed.keys,
    data: settings.data,
  });
}

/**
 * Builds the site in full into `outDir` (locked and checked by `build`): every stage, each taking
 * what it can from the caches. `stamp` names the inputs, for the next build to tell it has nothing to do.
 */
export async function buildInto(project: Project, outDir: string, options: BuildOptions, started: number, stamp: string | undefined): Promise<BuildResult> {
  const clock = timer();
  const startedAt = Date.now();
  const now = options.now ?? new Date();
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const inputs = startInputs(project, outDir);
  const { parsed, articles, due } = await loadArticles(project, options, now, warn);
  clock.lap('articles');
  const images = createImageStage(project, { started: Date.now() });
  const conversion = startConversion(project, parsed, articles, images, { warn, onProgress: options.onProgress });
  let output: StagedOutput | undefined;
  try {
    const [shell, dataSources, server, client] = await inputs;
    clock.lap('bundle');
    const settings = await siteSettings(project, server.module, dataSources, { baseUrl: options.baseUrl, warn, siteImages: images.siteImages });
    const jobs = expandRoutes(server.module.site, { articles, data: settings.data });
    output = await createStagedOutput(outDir, project.publicDir, { manifestFile: manifestFileOf(project, outDir) });
    const publicFiles = new Set(output.publicFiles);
    checkPublicClashes(client, jobs, publicFiles, project.publicDir);
    const assets = assetFiles(client);
    for (const file of [...assets, ...settings.images]) output.write(file);
    const compressed = openCompressedCache(project.cacheDir);
    const compressing = compressed.compress(assets);
    compressing.catch(() => {});

    const site = { server: server.module, client, shell, articles, settings };
    const drawing = drawnFiles({ server, articles, settings }, project);
    drawing.catch(() => {}); // reported where it is awaited, after the pages (dev mode's order)
    const context = renderContext(site, now, project.root);
    const pageCache = pageCacheFor(project, context, server, settings, parsed, options);
    const pages = createPageRenderer(context, pageCache, output, jobs, images);
    await renderAsConverted(jobs, new Set(articles), conversion, pages.render);
    pages.throwFirstFailure();
    clock.lap('markdown & render');
    const drawn = await drawing;
    const extra = generatedFiles(site, jobs, publicFiles, now);
    const imageFiles = [...settings.images, ...images.files(articles)];
    checkSiteOutput(project, { client, jobs, publicFiles, images: imageFiles, drawn, generated: extra }, pages.documents(), { feed: settings.feed });
    for (const file of [...imageFiles, ...drawn, ...extra, ...(await compressed.compress(extra)), ...(await compressing)]) output.write(file);
    clock.lap('render');

    const written = await commitOutput(project, output, parsed, pageCache, compressed);
    images.prune();
    output = undefined;
    const report = { pages: jobs.map((job) => pages.sizes.get(job)!), articles: articles.length, warnings };
    if (stamp) {
      const sources = [...server.sources, ...client.sources];
      saveUnchangedRecord(project, outDir, startedAt, { stamp, builtAt: now.getTime(), validUntil: validUntil(now, due), sources, report });
    }
    clock.lap('write');
    return {
      outDir,
      pages: report.pages,
      articles: articles.length,
      markdown: { cached: articles.length - parsed.pending.length, converted: parsed.pending.length },
      timings: clock.timings,
      durationMs: performance.now() - started,
      unchanged: !written,
    };
  } finally {
    await conversion.close();
    await output?.abort();
  }
}

/** Swaps the output in and keeps the caches for the next build; false when nothing was written. */
async function commitOutput(
  project: Project,
  output: StagedOutput,
  parsed: ParsedWithCache,
  pageCache: PageCache,
  compressed: ReturnType<typeof openCompressedCache>,
): Promise<boolean> {
  const [written] = await Promise.all([output.commit(), parsed.stale ? parsed.cache.save() : undefined]);
  try {
    pageCache.save();
  } catch {
    // Not kept: the next build renders every page.
  }
  compressed.prune();
  for (const dir of [project.cacheDir, path.join(project.cacheDir, 'bundles')]) removeAbandonedTemporaries(dir);
  return written;
}
