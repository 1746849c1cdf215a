import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { duplicateSlug, isArticleName, parseArticle, readArticleSources, sortNewestFirst, type Article } from './articles.ts';
import { assetFiles, resolveBaseUrl } from './build.ts';
import {
  ASSETS_DIR,
  collectClientBundle,
  findIslands,
  scriptBuildOptions,
  styleBuildOptions,
  type ClientBundle,
  type IslandSource,
} from './bundle-client.ts';
import { loadServerModule, serverBuildOptions, type ServerBundle } from './bundle-server.ts';
import { changedFields, dependsOnArticles, emptyReads, type PageReads } from './dependencies.ts';
import { parseDataFiles, readDataFiles, type DataFile } from './data.ts';
import { addCspSources } from './csp.ts';
import { SsgError } from './errors.ts';
import { swapStyleSheet } from './head.ts';
import { fromEsbuildFailure } from './esbuild-plugins.ts';
import { markdownToHtml } from './markdown.ts';
import { listFiles, writeFiles, writeFilesSync, type OutputFile } from './output.ts';
import { checkLinks } from './links.ts';
import { FEED_LIMIT, siteFiles } from './site-files.ts';
import { convertPending, parseWithCache } from './article-store.ts';
import { projectAt, type Project } from './project.ts';
import { renderDocument, type RenderContext } from './render.ts';
import { expandRoutes, type PageJob } from './routes.ts';
import type { DataSchema } from './site-definition.ts';
import { markdownHtml } from './images/article-images.ts';
import { bundleArticleOf, createDevArticleImages } from './images/stage.ts';
import { addSiteImages } from './images/site-images.ts';
import { loadTemplate, type DocumentShell } from './template.ts';

/** What a change touched, by the kind of input. */
export type ChangeKind = 'article' | 'data' | 'template' | 'style' | 'public' | 'code';

export interface UpdateResult {
  /** URL paths of the pages written (their HTML changed). */
  pages: string[];
  /** URL paths of pages removed. */
  removed: string[];
  /** Set when only the style sheet changed: pages may swap it in place. */
  styleSwap?: { from?: string; to?: string };
  /** Every page should reload (code, template, public files, site config). */
  reloadAll: boolean;
  durationMs: number;
}

interface RenderedPage {
  job: PageJob;
  html: string;
  reads: PageReads;
}

interface State {
  shell: DocumentShell;
  dataSources: Map<string, DataFile>;
  data: Record<string, unknown>;
  baseUrl: string;
  /** Every article source parsed, drafts included, by file. */
  parsed: Map<string, Article>;
  /** The published articles, newest first, with their HTML. */
  articles: Article[];
  server: ServerBundle;
  client: ClientBundle;
  islands: IslandSource[];
  pages: Map<string, RenderedPage>;
}

export interface IncrementalOptions {
  root: string;
  outDir: string;
  drafts?: boolean;
  baseUrl?: string;
  warn: (message: string) => void;
  now?: () => Date;
}

/**
 * Reads a file that just changed. An editor that truncates and then writes is seen in between as
 * an empty file: an empty read is given a moment and read again before it is believed.
 */
async function readSettled(file: string): Promise<string> {
  const text = readFileSync(file, 'utf8');
  if (text !== '') return text;
  await new Promise((resolve) => setTimeout(resolve, 25));
  return readFileSync(file, 'utf8');
}

/**
 * Route entries may carry article objects; after an edit that kept the list as it was, hand each
 * page the new object in place of the old one instead of expanding every route again.
 */
function withReplacedArticles(jobs: PageJob[], before: readonly Article[], after: readonly Article[]): PageJob[] {
  const replaced = new Map<unknown, Article>();
  before.forEach((article, index) => article !== after[index] && replaced.set(article, after[index]!));
  if (replaced.size === 0) return jobs;
  return jobs.map((job) => {
    if (!Object.values(job.entry).some((value) => replaced.has(value))) return job;
    const entry = Object.fromEntries(Object.entries(job.entry).map(([key, value]) => [key, replaced.get(value) ?? value]));
    return { ...job, entry };
  });
}

const relative = (project: Project, file: string) => path.relative(project.root, file).split(path.sep).join('/');

/** Which kind of input a file is, or undefined for files the site does not read. */
export function classify(project: Project, file: string): ChangeKind | undefined {
  const absolute = path.resolve(project.root, file);
  const inside = (dir: string) => absolute === dir || absolute.startsWith(dir + path.sep);
  if (absolute === project.template) return 'template';
  if (inside(project.articlesDir)) return isArticleName(path.relative(project.articlesDir, absolute)) ? 'article' : undefined;
  if (path.dirname(absolute) === project.contentDir) return /\.ya?ml$/i.test(absolute) ? 'data' : undefined;
  if (inside(project.publicDir)) return 'public';
  if (inside(path.join(project.root, 'site'))) return absolute.endsWith('.css') ? 'style' : 'code';
  return undefined;
}

/**
 * A build that stays in memory and, given the files that changed, redoes only what they affect:
 * an article edit renders that article and the pages that read what changed in it, not the site.
 */
export async function createIncrementalBuild(options: IncrementalOptions) {
  const project = projectAt(path.resolve(options.root));
  const outDir = path.resolve(project.root, options.outDir);
  const now = options.now ?? (() => new Date());
  const failEsbuild = (error: unknown, code: 'SiteCompileFailed' | 'ClientCompileFailed') => {
    throw fromEsbuildFailure(error, code, project.root);
  };

  const serverContext = await esbuild.context(serverBuildOptions(project));
  const styleContext = existsSync(project.stylesEntry)
    ? await esbuild.context(styleBuildOptions(project, path.join(outDir, ASSETS_DIR)))
    : undefined;
  let scriptContext: esbuild.BuildContext | undefined;
  let scriptIslands = '';
  let scriptResult: esbuild.BuildResult | undefined;
  let styleResult: esbuild.BuildResult | undefined;
  let state: State | undefined;
  let publicFiles: string[] = [];
  let generatedPaths: string[] = [];
  let generatedContents = new Map<string, string>();
  // ── ssg:images hook (issue 12) ── to move into the unified pipeline at merge.
  const articleImages = createDevArticleImages(project, ASSETS_DIR);
  /** Every processed image written so far: pages may link to them. */
  const imagePaths = new Set<string>();

  async function buildServer(): Promise<ServerBundle> {
    const result = await serverContext.rebuild().catch((error) => failEsbuild(error, 'SiteCompileFailed'));
    return loadServerModule(project, result);
  }

  async function buildScripts(islands: IslandSource[]): Promise<void> {
    const key = islands.map((island) => island.file).join('\n');
    if (key !== scriptIslands) {
      await scriptContext?.dispose();
      scriptContext = islands.length > 0 ? await esbuild.context(scriptBuildOptions(project, islands, path.join(outDir, ASSETS_DIR))) : undefined;
      scriptIslands = key;
    }
    scriptResult = await scriptContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  }

  async function buildStyles(): Promise<void> {
    styleResult = await styleContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  }

  const clientBundle = (islands: IslandSource[]) =>
    collectClientBundle(project, islands, path.join(outDir, ASSETS_DIR), scriptResult, styleResult);

  function parseData(sources: Map<string, DataFile>, server: ServerBundle) {
    return parseDataFiles([...sources.values()], (server.module.site.schemas ?? {}) as Record<string, DataSchema>);
  }

  function publishedArticles(parsed: Map<string, Article>): Article[] {
    const bySlug = new Map<string, Article>();
    for (const article of parsed.values()) {
      const existing = bySlug.get(article.slug);
      if (existing) {
        // Name them in file order, as a build does, whatever order they were seen in.
        const [first, second] = [existing, article].sort((a, b) => (a.file < b.file ? -1 : 1));
        throw duplicateSlug(first!, second!);
      }
      bySlug.set(article.slug, article);
    }
    return sortNewestFirst([...bySlug.values()].filter((article) => options.drafts || !article.draft));
  }

  function parseOne(file: string, text: string, previous: Article | undefined): Article {
    const article = parseArticle({ file, text }, { now: now(), warn: options.warn });
    // markdownHtml: the HTML before its images were replaced, which are processed again (ssg:images).
    article.html = previous && previous.markdown === article.markdown ? markdownHtml(previous) : markdownToHtml(article.markdown);
    return article;
  }

  function renderContext(next: Omit<State, 'pages'>): RenderContext {
    return {
      server: next.server.module,
      client: next.client,
      shell: next.shell,
      articles: next.articles,
      data: next.data,
      baseUrl: next.baseUrl,
      now: now(),
      root: project.root,
      meta: next.server.module.site.meta?.(next.data),
      feed: feedOf(next),
    };
  }

  function feedOf(next: Omit<State, 'pages'>) {
    const feed = next.server.module.site.feed?.(next.data);
    return feed && { path: feed.path, title: feed.title };
  }

  /** sitemap, robots, feed, manifest and _headers, as the build writes them. */
  function generatedFiles(next: Omit<State, 'pages'>, jobs: readonly PageJob[]): OutputFile[] {
    const site = next.server.module.site;
    return siteFiles({
      jobs,
      articles: next.articles,
      baseUrl: next.baseUrl,
      now: now(),
      meta: site.meta?.(next.data),
      feed: site.feed?.(next.data),
      headers: addCspSources(site.headers?.(next.data), next.client.inlineHashes),
      publicFiles: new Set(publicFiles),
    });
  }

  /** Links on the pages just rendered must lead somewhere, as in a build. */
  function checkRenderedLinks(rendered: Iterable<RenderedPage>, jobs: readonly PageJob[], client: ClientBundle) {
    const paths = new Set([
      ...jobs.map((job) => job.outputPath),
      ...client.assets.map((asset) => asset.path),
      ...generatedPaths,
      ...publicFiles,
      ...imagePaths,
    ]);
    checkLinks([...rendered].map((page) => ({ path: page.job.path, html: page.html })), paths);
  }

  function renderPages(jobs: readonly PageJob[], context: RenderContext): Map<string, RenderedPage> {
    const pages = new Map<string, RenderedPage>();
    for (const job of jobs) {
      const reads = emptyReads();
      const { html } = renderDocument(job, context, reads);
      pages.set(job.outputPath, { job, html, reads });
    }
    return pages;
  }

  /** Builds everything into the output folder, replacing what was there. */
  async function initial(): Promise<UpdateResult> {
    const started = performance.now();
    const islands = await findIslands(project);
    const [shell, dataFiles, sources, server] = await Promise.all([
      loadTemplate(project.template, relative(project, project.template)),
      readDataFiles(project.root, project.contentDir),
      readArticleSources(project.root, project.articlesDir),
      buildServer(),
      buildScripts(islands),
      buildStyles(),
    ]);
    const dataSources = new Map(dataFiles.map((file) => [file.name, file]));
    const data = parseData(dataSources, server);
    const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
    server.module.site.check?.(data, options.warn);
    const siteImageFiles = await addSiteImages(project, server.module.site, data, ASSETS_DIR); // ssg:images hook

    // As a build does: the cache first, the rest converted in helper processes.
    const store = await parseWithCache(sources, { now: now(), warn: options.warn, cacheDir: project.cacheDir });
    const conversion = convertPending(store, { cacheDir: project.cacheDir });
    try {
      await conversion.done;
    } finally {
      await conversion.close();
    }
    if (store.stale) await store.cache.save();
    const parsed = new Map(store.all.map((article) => [article.file, article]));
    const articles = publishedArticles(parsed);
    const imageFiles = await articleImages(articles); // ssg:images hook
    for (const file of [...imageFiles, ...siteImageFiles]) imagePaths.add(file.path);
    const client = clientBundle(islands);
    const base = { shell, dataSources, data, baseUrl, parsed, articles, server, client, islands };
    const jobs = expandRoutes(server.module.site, { articles, data });
    const pages = renderPages(jobs, renderContext(base));
    publicFiles = await listFiles(project.publicDir);
    const generated = generatedFiles(base, jobs);
    generatedPaths = generated.map((file) => file.path);
    generatedContents = new Map(generated.map((file) => [file.path, String(file.contents)]));
    checkRenderedLinks(pages.values(), jobs, client);

    await rm(outDir, { recursive: true, force: true });
    await mkdir(outDir, { recursive: true });
    if (existsSync(project.publicDir)) await cp(project.publicDir, outDir, { recursive: true });
    await writeFiles(outDir, [
      ...assetFiles(client),
      ...imageFiles,
      ...siteImageFiles,
      ...generated,
      ...[...pages.values()].map((page) => ({ path: page.job.outputPath, contents: page.html })),
    ]);
    state = { ...base, pages };
    return { pages: jobs.map((job) => job.path), removed: [], reloadAll: true, durationMs: performance.now() - started };
  }

  /** Applies a set of changed files (relative to the root or absolute). All or nothing. */
  async function update(changed: Iterable<string>): Promise<UpdateResult> {
    if (!state) return initial();
    const started = performance.now();
    const previous = state;
    const kinds = new Map<ChangeKind, string[]>();
    for (const changedFile of changed) {
      // An image of a page bundle changed: its article is what to render again (ssg:images hook).
      const file = bundleArticleOf(path.resolve(project.root, changedFile), project.articlesDir) ?? changedFile;
      const kind = classify(project, file);
      if (kind) kinds.set(kind, [...(kinds.get(kind) ?? []), path.resolve(project.root, file)]);
    }
    let renderAll = false;
    let reloadAll = false;

    // Code and template: everything may look different.
    let shell = previous.shell;
    if (kinds.has('template')) {
      shell = await loadTemplate(project.template, relative(project, project.template));
      renderAll = reloadAll = true;
    }
    let server = previous.server;
    let islands = previous.islands;
    if (kinds.has('code')) {
      islands = await findIslands(project);
      [server] = await Promise.all([buildServer(), buildScripts(islands)]);
      renderAll = reloadAll = true;
    }
    const styleChanged = kinds.has('style');
    if (styleChanged) await buildStyles();
    const client = kinds.has('code') || styleChanged ? clientBundle(islands) : previous.client;

    // Data files: the pages that read the changed names.
    const imageFiles: OutputFile[] = []; // ssg:images hook: processed images to write
    let { data, dataSources, baseUrl } = previous;
    const changedData = new Set<string>();
    // A public file may be an image the pages show processed (data.images): ssg:images hook.
    if (kinds.has('data') || kinds.has('code') || kinds.has('public')) {
      dataSources = new Map(dataSources);
      for (const file of kinds.get('data') ?? []) {
        const name = path.basename(file).replace(/\.ya?ml$/i, '');
        if (existsSync(file)) dataSources.set(name, { name, file: relative(project, file), text: readFileSync(file, 'utf8') });
        else dataSources.delete(name);
      }
      data = parseData(dataSources, server);
      imageFiles.push(...(await addSiteImages(project, server.module.site, data, ASSETS_DIR))); // ssg:images hook
      for (const name of new Set([...Object.keys(data), ...Object.keys(previous.data)])) {
        if (JSON.stringify(data[name]) !== JSON.stringify(previous.data[name])) changedData.add(name);
      }
      if (changedData.size > 0) {
        baseUrl = resolveBaseUrl(project, data, options.baseUrl);
        server.module.site.check?.(data, options.warn);
        if (changedData.has(project.siteConfigName)) renderAll = reloadAll = true;
      }
    }

    // Articles: parse only the changed files; compare what each page read.
    let { parsed, articles } = previous;
    const fieldChanges = new Map<string, Set<string>>();
    let listChanged = false;
    if (kinds.has('article')) {
      parsed = new Map(parsed);
      for (const file of kinds.get('article')!) {
        const name = relative(project, file);
        if (!existsSync(file)) {
          parsed.delete(name);
          continue;
        }
        parsed.set(name, parseOne(name, await readSettled(file), previous.parsed.get(name)));
      }
      articles = publishedArticles(parsed);
      const edited = new Set([...parsed.values()].filter((article) => previous.parsed.get(article.file) !== article));
      imageFiles.push(...await articleImages(articles.filter((article) => edited.has(article)))); // ssg:images hook
      const before = new Map(previous.articles.map((article) => [article.slug, article]));
      listChanged =
        articles.length !== previous.articles.length || articles.some((article, index) => previous.articles[index]!.slug !== article.slug);
      for (const article of articles) {
        const old = before.get(article.slug);
        if (old && old !== article) {
          const fields = changedFields(old, article);
          if (fields.size > 0) fieldChanges.set(article.slug, fields);
        }
      }
    }

    for (const file of imageFiles) imagePaths.add(file.path);
    const base = { shell, dataSources, data, baseUrl, parsed, articles, server, client, islands };
    const routesMayChange = renderAll || listChanged || changedData.size > 0;
    const jobs = routesMayChange
      ? expandRoutes(server.module.site, { articles, data })
      : withReplacedArticles([...previous.pages.values()].map((page) => page.job), previous.articles, articles);

    const toRender = jobs.filter((job) => {
      const page = previous.pages.get(job.outputPath);
      if (renderAll || !page) return true;
      if ([...page.reads.dataKeys].some((key) => changedData.has(key))) return true;
      return dependsOnArticles(page.reads, { listChanged, fields: fieldChanges });
    });
    const rendered = renderPages(toRender, renderContext(base));
    if (kinds.has('public')) publicFiles = await listFiles(project.publicDir);
    // The sitemap reads the list and the dates; the feed the newest articles: an edit elsewhere
    // changes neither.
    const feedLimit = server.module.site.feed?.(data).limit ?? FEED_LIMIT;
    const inFeed = new Set(articles.slice(0, feedLimit).map((article) => article.slug));
    const regenerate =
      routesMayChange ||
      kinds.has('public') ||
      [...fieldChanges].some(([slug, fields]) => inFeed.has(slug) || fields.has('date') || fields.has('data'));
    const generated = regenerate ? generatedFiles(base, jobs) : [];
    if (regenerate) generatedPaths = generated.map((file) => file.path);
    checkRenderedLinks(rendered.values(), jobs, client);

    const pages = new Map<string, RenderedPage>();
    const writes: OutputFile[] = [];
    const written: string[] = [];
    const styleSwap = styleChanged ? { from: previous.client.styleUrl, to: client.styleUrl } : undefined;
    for (const job of jobs) {
      const fresh = rendered.get(job.outputPath);
      let page = fresh ?? { ...previous.pages.get(job.outputPath)!, job };
      // A new style sheet has a new name: pages not rendered again point at it all the same.
      if (!fresh && styleSwap?.from && styleSwap.to && styleSwap.from !== styleSwap.to) {
        const inline = { before: previous.client.inlineStyle, after: client.inlineStyle };
        page = { ...page, html: swapStyleSheet(page.html, styleSwap.from, styleSwap.to, inline) };
      }
      pages.set(job.outputPath, page);
      if (page.html !== previous.pages.get(job.outputPath)?.html) {
        writes.push({ path: job.outputPath, contents: page.html });
        written.push(job.path);
      }
    }
    const removed = [...previous.pages.values()].filter((page) => !pages.has(page.job.outputPath));

    // Assets: write the new ones, then drop those no page refers to any more.
    const oldAssets = new Set(previous.client.assets.map((asset) => asset.path));
    const newAssets = client.assets.filter((asset) => !oldAssets.has(asset.path)).map((asset) => ({ path: asset.path, contents: asset.contents }));
    const keptAssets = new Set(client.assets.map((asset) => asset.path));
    // Only generated files whose content changed (the feed rarely does for an old article).
    for (const file of generated) {
      const text = String(file.contents);
      if (generatedContents.get(file.path) !== text) {
        generatedContents.set(file.path, text);
        writes.push(file);
      }
    }
    // Synchronously: a handful of files, and the thread pool may be busy with the watcher's stats.
    writeFilesSync(outDir, [...newAssets, ...imageFiles, ...writes]);
    await Promise.all([
      ...removed.map((page) => rm(path.join(outDir, page.job.outputPath), { force: true })),
      ...[...oldAssets].filter((asset) => !keptAssets.has(asset)).map((asset) => rm(path.join(outDir, asset), { force: true })),
      ...(kinds.get('public') ?? []).map(async (file) => {
        const target = path.join(outDir, path.relative(project.publicDir, file));
        if (existsSync(file)) {
          await mkdir(path.dirname(target), { recursive: true });
          await copyFile(file, target);
        } else await rm(target, { recursive: true, force: true });
      }),
    ]);
    if (kinds.has('public')) reloadAll = true;

    state = { ...base, pages };
    const onlyStyle = styleChanged && kinds.size === 1;
    return {
      pages: written,
      removed: removed.map((page) => page.job.path),
      styleSwap: onlyStyle ? styleSwap : undefined,
      reloadAll,
      durationMs: performance.now() - started,
    };
  }

  async function dispose(): Promise<void> {
    await Promise.all([serverContext.dispose(), styleContext?.dispose(), scriptContext?.dispose()]);
  }

  return { project, outDir, initial, update, dispose, hasBuilt: () => state !== undefined };
}

export type IncrementalBuild = Awaited<ReturnType<typeof createIncrementalBuild>>;
