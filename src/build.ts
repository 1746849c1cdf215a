import { createHash } from 'node:crypto';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { readArticleSources, type Article } from './articles.ts';
import { addCspSources } from './csp.ts';
import { ASSETS_DIR, bundleClient, type ClientBundle } from './bundle-client.ts';
import { bundleServer } from './bundle-server.ts';
import { parseDataFiles, readDataFiles } from './data.ts';
import { SsgError } from './errors.ts';
import { checkLinks } from './links.ts';
import { openCacheFolder, removeAbandonedTemporaries } from './cache/store.ts';
import { openCompressedCache } from './precompress.ts';
import { siteFiles } from './site-files.ts';
import { generateFiles } from './generated-files.ts';
import { convertPending, parseWithCache } from './article-store.ts';
import { createStagedOutput, type OutputFile } from './output.ts';
import { projectAt, type Project } from './project.ts';
import { cleanLeftovers, lockOutput } from './output-lock.ts';
import { checkOwnership, checkProjectRoot, resolveOutDir } from './output-target.ts';
import { emptyReads } from './dependencies.ts';
import { openPageCache } from './page-cache.ts';
import { renderDocument, type RenderContext } from './render.ts';
import { expandRoutes, type PageJob } from './routes.ts';
import { createArticleImageStage } from './images/stage.ts';
import { addSiteImages } from './images/site-images.ts';
import type { PageSizes } from './summary.ts';
import { loadTemplate } from './template.ts';

export interface BuildOptions {
  root: string;
  /** The output folder, absolute or relative to root. */
  outDir: string;
  /** Overrides `baseUrl` of content/site.yaml. */
  baseUrl?: string;
  drafts?: boolean;
  /** The build time; articles without a date get it. */
  now?: Date;
  warn?: (message: string) => void;
  /** Replace the contents of an output folder no build wrote (one a build wrote is always replaced). */
  emptyOutDir?: boolean;
  /** W5: told after each batch of articles converted: how many of those to convert are done (the CLI's progress line). */
  onProgress?: (converted: number, total: number) => void;
  /** How long to wait for another build into the same folder (default two minutes). */
  lockTimeoutMs?: number;
}

export interface BuildResult {
  outDir: string;
  pages: PageSizes[];
  articles: number;
  /** Markdown conversions taken from the cache, and done. */
  markdown: { cached: number; converted: number };
  timings: Record<string, number>;
  durationMs: number;
  /** The output folder already held exactly this site; nothing was written. */
  unchanged: boolean;
}

/** `https://example.com/` → `https://example.com`; anything but an absolute http(s) origin is refused. */
export function normalizeBaseUrl(value: unknown, source: string): string {
  const fail = (why: string) => new SsgError('BaseUrlInvalid', `The base URL ${why}.`, { file: source });
  if (typeof value !== 'string' || value === '') throw fail('is not set');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(`"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(`"${value}" is not http or https`);
  if (url.pathname !== '/' || url.search || url.hash) throw fail(`"${value}" has a path; give the origin only`);
  return url.origin;
}

/** The base URL: the command line's, else `baseUrl` of the site config. */
export function resolveBaseUrl(project: Project, data: Record<string, unknown>, override: string | undefined): string {
  const siteConfig = data[project.siteConfigName] as { baseUrl?: unknown } | undefined;
  const configFile = `content/${project.siteConfigName}.yaml`;
  if (!override && !siteConfig) {
    throw new SsgError('SiteConfigMissing', `${configFile} is missing, and no --base-url was given.`);
  }
  return normalizeBaseUrl(override ?? siteConfig?.baseUrl, override ? '--base-url' : configFile);
}

export function assetFiles(client: ClientBundle): OutputFile[] {
  return client.assets.map((asset) => ({ path: asset.path, contents: asset.contents }));
}

/** Where the build records what it left in an output folder (one record per folder). */
function outputManifestFile(project: Project, outDir: string): string {
  const id = createHash('sha1').update(outDir).digest('hex').slice(0, 12);
  return path.join(project.cacheDir, `output-${id}.json`);
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

/** The articles a page was handed through its route entry: it can be rendered once they are converted. */
function entryArticles(job: PageJob, known: ReadonlySet<Article>): Article[] {
  return Object.values(job.entry).filter((value): value is Article => known.has(value as Article));
}

/**
 * Builds the site into the output folder, once it is known to be a folder the build may write:
 * refused when it is the project, a source folder or a foreign folder; waited for while another
 * build writes there; cleared of what killed builds left beside it.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const root = path.resolve(options.root);
  checkProjectRoot(root, options.root);
  const project = projectAt(root);
  const outDir = resolveOutDir(project, options.outDir);
  const release = await lockOutput(outDir, {
    timeoutMs: options.lockTimeoutMs,
    onWait: (pid) => options.warn?.(`another build (process ${pid}) is writing into ${outDir}; waiting for it to finish.`),
  });
  try {
    cleanLeftovers(outDir);
    checkOwnership(outDir, options.outDir, Boolean(options.emptyOutDir));
    return await buildInto(project, outDir, options, started);
  } finally {
    release();
  }
}

async function buildInto(project: Project, outDir: string, options: BuildOptions, started: number): Promise<BuildResult> {
  const clock = timer();
  const now = options.now ?? new Date();
  const warn = options.warn ?? (() => {});
  openCacheFolder(project.cacheDir, path.relative(project.root, project.cacheDir));

  // Bundling runs in esbuild's own process while this thread reads and converts the articles.
  const inputs = Promise.all([
    loadTemplate(project.template, path.relative(project.root, project.template)),
    readDataFiles(project.root, project.contentDir),
    bundleServer(project),
    bundleClient(project, path.join(outDir, ASSETS_DIR)),
  ]);
  inputs.catch(() => {}); // reported where it is awaited

  // Files seen in an earlier build skip their YAML and Markdown: both come from the cache.
  const sources = await readArticleSources(project.root, project.articlesDir, warn);
  const parsed = await parseWithCache(sources, { now, warn, cacheDir: project.cacheDir });
  const articles = parsed.all.filter((article) => options.drafts || !article.draft);
  // Drafts left out are not converted.
  parsed.pending = parsed.pending.filter((item) => options.drafts || !item.article.draft);
  const { pending, cache, keys } = parsed;
  clock.lap('articles');

  const waiting = new Set(pending.map((item) => item.article));
  const ready = new Set<Article>();
  let onConverted: (articles: Article[]) => void = () => {};
  let convertedSoFar = 0; // W5: progress line
  // ── ssg:images hook (issue 12) ── an article is ready to render once converted and its images
  // processed (at once when it shows none). To move into the unified pipeline at merge.
  const images = createArticleImageStage(project, { assetsDir: ASSETS_DIR, started: Date.now() });
  const admit = (done: Article[]) =>
    images.admit(done, (imagesDone) => {
      for (const article of imagesDone) ready.add(article);
      onConverted(imagesDone);
    });
  admit(articles.filter((article) => !waiting.has(article)));
  const conversion = convertPending(parsed, {
    cacheDir: project.cacheDir,
    onConverted: (done) => {
      options.onProgress?.((convertedSoFar += done.length), pending.length); // W5: progress line
      admit(done);
    },
  });
  const converting = conversion.done;

  let output: Awaited<ReturnType<typeof createStagedOutput>> | undefined;
  try {
    const [shell, dataSources, server, client] = await inputs;
    clock.lap('bundle');

    const site = server.module.site;
    const data = parseDataFiles(dataSources, (site.schemas ?? {}) as Record<string, never>);
    const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
    site.check?.(data, warn);
    const siteImageFiles = await addSiteImages(project, site, data, ASSETS_DIR, images.cache); // ssg:images hook
    const jobs = expandRoutes(site, { articles, data });
    const meta = site.meta?.(data);
    const feed = site.feed?.(data);
    output = await createStagedOutput(outDir, project.publicDir, { manifestFile: outputManifestFile(project, outDir) });
    const assets = assetFiles(client);
    for (const file of [...assets, ...siteImageFiles]) output.write(file);
    for (const file of await generateFiles(site, { articles, data, baseUrl, root: project.root }, { cacheDir: project.cacheDir, salt: server.code })) output.write(file); // W5: generated files (share images)
    const compressed = openCompressedCache(project.cacheDir);
    const compressing = compressed.compress(assets);
    compressing.catch(() => {});

    // Pages that were handed their articles render as soon as those are converted; every other
    // page (a list may read any article) once all are.
    const context: RenderContext = {
      server: server.module,
      client,
      shell,
      articles,
      data,
      baseUrl,
      now,
      root: project.root,
      meta,
      feed: feed && { path: feed.path, title: feed.title },
    };
    // Pages whose every input is as in the last build come from the page cache, unrendered.
    const pageCache = openPageCache({
      cacheDir: project.cacheDir,
      shared: [
        server.code,
        JSON.stringify([shell, client.assets.map((asset) => asset.path), client.loaderUrl, client.styleUrl, baseUrl, meta, feed, Boolean(options.drafts)]),
      ],
      now,
      articles,
      keys,
      data,
    });
    const documents: Array<{ path: string; html: string }> = [];
    const known = new Set(articles);
    const entryKey = (job: PageJob) =>
      JSON.stringify([job.path, job.params, job.entry], (_, value) => (known.has(value) ? `article:${(value as Article).file}:${images.signature(value as Article)}` : value));
    const waitingOn = new Map<Article, PageJob[]>();
    const later: PageJob[] = [];
    const pages = new Map<PageJob, PageSizes>();
    const stage = output;
    const render = (job: PageJob) => {
      const key = entryKey(job);
      let document = pageCache.get(job.outputPath, key);
      if (!document) {
        const reads = emptyReads();
        document = renderDocument(job, context, reads);
        pageCache.set(job.outputPath, key, document, reads);
      }
      documents.push({ path: job.path, html: document.html });
      const contents = Buffer.from(document.html);
      stage.write({ path: job.outputPath, contents });
      const assets = client.assetsFor(document.islands);
      const sum = (urls: string[]) => urls.reduce((total, url) => total + client.gzipSize(url), 0);
      const firstPaintJsGzip = sum(client.firstPaintScripts(document.html));
      pages.set(job, { route: job.path, pattern: job.route.path, htmlBytes: contents.length, firstPaintJsGzip, jsGzip: sum(assets.js), cssGzip: sum(assets.css) });
    };
    const renderReady = (job: PageJob) => entryArticles(job, known).every((article) => ready.has(article));
    for (const job of jobs) {
      const needs = entryArticles(job, known);
      if (needs.length === 0) later.push(job);
      else if (renderReady(job)) render(job);
      else for (const article of needs) waitingOn.set(article, [...(waitingOn.get(article) ?? []), job]);
    }
    let renderError: unknown;
    onConverted = (done) => {
      for (const article of done) {
        for (const job of waitingOn.get(article) ?? []) {
          if (!pages.has(job) && renderReady(job)) {
            try {
              render(job);
            } catch (error) {
              renderError ??= error;
            }
          }
        }
        waitingOn.delete(article);
      }
    };
    await converting;
    await conversion.close();
    for (const file of await images.files()) output.write(file); // ssg:images hook
    if (renderError) throw renderError;
    clock.lap('markdown & render');
    for (const job of later) render(job);
    const extra = siteFiles({ jobs, articles, baseUrl, now, meta, feed, headers: addCspSources(site.headers?.(data), client.inlineHashes), publicFiles: new Set(output.publicFiles) });
    for (const file of [...extra, ...(await compressed.compress(extra)), ...(await compressing)]) output.write(file);
    checkLinks(documents, output.paths());
    clock.lap('render');

    const [written] = await Promise.all([output.commit(), parsed.stale ? cache.save() : undefined]);
    try {
      pageCache.save();
    } catch {
      // Not kept: the next build renders every page.
    }
    compressed.prune();
    images.prune(); // ssg:images hook
    for (const dir of [project.cacheDir, path.join(project.cacheDir, 'bundles')]) removeAbandonedTemporaries(dir);
    output = undefined;
    clock.lap('write');

    return {
      outDir,
      pages: jobs.map((job) => pages.get(job)!),
      articles: articles.length,
      markdown: { cached: articles.length - pending.length, converted: pending.length },
      timings: clock.timings,
      durationMs: performance.now() - started,
      unchanged: !written,
    };
  } finally {
    await conversion.close();
    await output?.abort();
  }
}
