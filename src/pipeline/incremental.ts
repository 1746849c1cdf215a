// Dev mode's side of the pipeline: the stages of src/pipeline/stages.ts kept alive between saves
// and run on what changed. What differs from `build` is how (esbuild contexts rebuilt instead of
// one-shot bundles, pages chosen by what they read, files written in place); every check is the
// same, on the whole site, on every rebuild.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { isArticleName, parseArticle, readArticleSources, reportRawHtml, type Article } from '../content/articles.ts';
import { assetFiles } from './full-build.ts';
import { collectClientBundle, findIslands, scriptBuildOptions, styleBuildOptions, type ClientBundle, type IslandSource } from '../bundle/bundle-client.ts';
import { loadServerModule, serverBuildOptions, type ServerBundle } from '../bundle/bundle-server.ts';
import { changedFields, dependsOnArticles, emptyReads, isTracked, mapArticlesIn, trackReads, untracked, type PageReads } from '../render/dependencies.ts';
import type { SiteDefinition } from '../render/site-definition.ts';
import { readDataFiles, type DataFile } from '../content/data.ts';
import { SsgError } from '../errors.ts';
import { swapStyleSheet } from '../render/head.ts';
import { fromEsbuildFailure } from '../bundle/esbuild-plugins.ts';
import { createLinkCheckMemo, pageLinks, type LinkCheckMemo, type PageLinks } from '../render/links.ts';
import { convertMarkdown } from '../content/markdown.ts';
import { listFiles, type OutputFile } from '../output/output.ts';
import { FEED_LIMIT } from '../render/site-files.ts';
import type { DrawnMemo } from '../render/generated-files.ts';
import { convertPending, parseWithCache } from '../content/article-store.ts';
import { ASSETS_DIR, projectAt, type Project } from '../project.ts';
import { renderDocument, type RenderContext } from '../render/render.ts';
import { expandRoutes, type PageJob } from '../render/routes.ts';
import { loadTemplate, type DocumentShell } from '../render/template.ts';
import { createInPlaceOutput } from './in-place-output.ts';
import { createImageStage, type ImageStage } from './images.ts';
import { markdownHtml } from '../images/article-images.ts';
import {
  checkPublicClashes,
  checkSiteOutput,
  drawnFiles,
  generatedFiles,
  inOrder,
  publishArticles,
  renderContext,
  siteSettings,
  sourceFileOf,
  type SiteSettings,
} from './stages.ts';

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
  /** Its internal links and ids, taken out once: every rebuild checks the links of every page. */
  links: PageLinks;
}

/** Everything one good rebuild made; the next starts from it. */
interface State {
  shell: DocumentShell;
  server: ServerBundle;
  client: ClientBundle;
  islands: IslandSource[];
  dataSources: Map<string, DataFile>;
  settings: SiteSettings;
  /** Every article file parsed, drafts included. */
  byFile: Map<string, Article>;
  /** The published articles, newest first, with their HTML. */
  articles: Article[];
  publicFiles: Set<string>;
  jobs: PageJob[];
  /** What the routes' entries() read when they were last expanded. */
  routeReads: PageReads;
  pages: Map<string, RenderedPage>;
  /** The images the articles show, processed. */
  articleImages: OutputFile[];
  /** The files the site draws (share images), and what its files() read to list them. */
  drawn: OutputFile[];
  drawnReads: PageReads;
  generated: OutputFile[];
}

export interface IncrementalOptions {
  root: string;
  outDir: string;
  drafts?: boolean;
  /** Include articles dated after now (held back until their date otherwise). */
  future?: boolean;
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
  // Any article ends the walk (kept, or replaced), so the walk never goes through an article's own fields.
  const known = new Set<unknown>(before);
  return jobs.map((job) => {
    // Also inside the lists and objects an entry holds (a tag's group of articles).
    const entry = mapArticlesIn(job.entry, (value) => known.has(value), (article) => replaced.get(article) ?? article) as PageJob['entry'];
    return entry === job.entry ? job : { ...job, entry };
  });
}

/**
 * Every page of the site, and what the routes' entries() read to list them: the routes are
 * expanded again only when that changed. The entries hold the articles, not the tracking proxies.
 */
function expandTracked(site: SiteDefinition<Record<string, unknown>>, articles: readonly Article[], data: Record<string, unknown>) {
  const reads = emptyReads();
  const tracked = trackReads(articles, data, reads);
  // Also inside the lists and objects an entry holds: a page reading a tag group's articles
  // records what it read as its own reads, not the route table's.
  const jobs = expandRoutes(site, { articles: tracked.articles, data: tracked.data }).map((job) => ({
    ...job,
    entry: mapArticlesIn(job.entry, isTracked, untracked) as PageJob['entry'],
  }));
  return { jobs, routeReads: reads };
}

/** Whether what `reads` noted (of a route table's entries, of the drawn files) may read otherwise now. */
function readsChanged(reads: PageReads, inputs: Inputs): boolean {
  if ([...reads.dataKeys].some((key) => inputs.changedData.has(key))) return true;
  return dependsOnArticles(reads, { listChanged: inputs.listChanged, fields: inputs.fields });
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
 * The articles that show each image file (beside them or in the public folder), as the last good
 * rebuild processed them: when the file changes, appears or goes, they are read and processed again.
 */
function imageReaders(state: State | undefined, images: ImageStage, project: Project): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  for (const article of state?.articles ?? []) {
    for (const source of images.sources(article)) readers.set(source, [...(readers.get(source) ?? []), path.resolve(project.root, article.file)]);
  }
  return readers;
}

function classifyAll(project: Project, changed: Iterable<string>, readers: ReadonlyMap<string, readonly string[]>): Map<ChangeKind, string[]> {
  const kinds = new Map<ChangeKind, Set<string>>();
  const add = (kind: ChangeKind | undefined, file: string) => kind && kinds.set(kind, (kinds.get(kind) ?? new Set()).add(file));
  for (const changedFile of changed) {
    const file = path.resolve(project.root, changedFile);
    add(classify(project, file), file);
    for (const article of readers.get(file) ?? []) add('article', article);
  }
  return new Map([...kinds].map(([kind, files]) => [kind, [...files]]));
}

/** The dev option of the bundle stage: esbuild contexts kept alive and rebuilt on a change. */
async function createDevBundler(project: Project, outDir: string) {
  const assetsDir = path.join(outDir, ASSETS_DIR);
  const failEsbuild = (error: unknown, code: 'SiteCompileFailed' | 'ClientCompileFailed') => {
    throw fromEsbuildFailure(error, code, project.root);
  };
  const serverContext = await esbuild.context(serverBuildOptions(project));
  const styleContext = existsSync(project.stylesEntry) ? await esbuild.context(styleBuildOptions(project, assetsDir)) : undefined;
  let scriptContext: esbuild.BuildContext | undefined;
  let scriptIslands: string | undefined;
  let scriptResult: esbuild.BuildResult | undefined;
  let styleResult: esbuild.BuildResult | undefined;
  return {
    async server(): Promise<ServerBundle> {
      const result = await serverContext.rebuild().catch((error) => failEsbuild(error, 'SiteCompileFailed'));
      return loadServerModule(project, result);
    },
    async scripts(islands: IslandSource[]): Promise<void> {
      const key = islands.map((island) => island.file).join('\n');
      if (key !== scriptIslands) {
        await scriptContext?.dispose();
        scriptContext = islands.length > 0 ? await esbuild.context(scriptBuildOptions(project, islands, assetsDir)) : undefined;
        scriptIslands = key;
      }
      scriptResult = await scriptContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
    },
    async styles(): Promise<void> {
      styleResult = await styleContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
    },
    client: (islands: IslandSource[]) => collectClientBundle(project, islands, assetsDir, scriptResult, styleResult),
    async dispose(): Promise<void> {
      await Promise.all([serverContext.dispose(), styleContext?.dispose(), scriptContext?.dispose()]);
    },
  };
}

type DevBundler = Awaited<ReturnType<typeof createDevBundler>>;

/** The inputs of a rebuild, and what changed in them since the last good one. */
interface Inputs extends Omit<State, 'jobs' | 'routeReads' | 'pages' | 'drawn' | 'drawnReads' | 'generated' | 'articleImages'> {
  /** Every page may look different (code, template, site config, first build). */
  renderAll: boolean;
  styleChanged: boolean;
  listChanged: boolean;
  /** Fields changed of each article, by slug. */
  fields: Map<string, Set<string>>;
  changedData: Set<string>;
  publicChanged: boolean;
}

/** Parses one changed article file; its error is kept to be reported with the others in file order. */
async function parseChanged(project: Project, file: string, previous: Article | undefined, now: Date, warn: (message: string) => void) {
  if (!statIsFile(file)) return undefined; // deleted, or a folder named x.md (its articles come on their own)
  try {
    const article = parseArticle({ file: relative(project, file), text: await readSettled(file) }, { now, warn });
    if (previous && previous.markdown === article.markdown) {
      // As the Markdown stage made it: its images are processed again, never rewritten twice.
      article.html = markdownHtml(previous);
    } else {
      const { html, rawHtmlLines } = convertMarkdown(article.markdown);
      article.html = html;
      reportRawHtml(article, rawHtmlLines, warn);
    }
    return article;
  } catch (error) {
    if (error instanceof SsgError) return error;
    throw error;
  }
}

const statIsFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * The article stage on the changed files (none: the list is published again, as future posts
 * come due while dev runs): the list, and what changed in each article.
 */
async function updateArticles(project: Project, previous: State, files: readonly string[], options: IncrementalOptions, now: Date) {
  const parsed = new Map<string, Article | SsgError>(previous.byFile);
  for (const file of files) {
    const name = relative(project, file);
    const article = await parseChanged(project, file, previous.byFile.get(name), now, options.warn);
    if (article) parsed.set(name, article);
    else parsed.delete(name);
  }
  const articles = publishArticles(parsed, { drafts: options.drafts, future: options.future, now });
  const byFile = parsed as Map<string, Article>; // publishArticles threw if any was an error
  const listChanged =
    articles.length !== previous.articles.length || articles.some((article, index) => previous.articles[index]!.slug !== article.slug);
  const before = new Map(previous.articles.map((article) => [article.slug, article]));
  const fields = new Map<string, Set<string>>();
  for (const article of articles) {
    const old = before.get(article.slug);
    const changed = old && old !== article ? changedFields(old, article) : undefined;
    if (changed && changed.size > 0) fields.set(article.slug, changed);
  }
  return { byFile, articles, listChanged, fields };
}

/** Every article, as a build reads them: the Markdown cache first, the rest in helper processes. */
async function loadAllArticles(project: Project, options: IncrementalOptions, now: Date) {
  const sources = await readArticleSources(project.root, project.articlesDir, options.warn);
  const store = await parseWithCache(sources, { now, warn: options.warn, cacheDir: project.cacheDir });
  // Every article, held back or not: a future post comes due while dev runs, unedited.
  const conversion = convertPending(store, { cacheDir: project.cacheDir, warn: options.warn });
  try {
    await conversion.done;
  } finally {
    await conversion.close();
  }
  if (store.stale) await store.cache.save();
  const byFile = new Map(store.all.map((article) => [article.file, article]));
  return { byFile, articles: publishArticles(byFile, { drafts: options.drafts, future: options.future, now }) };
}

/** The data files after the changed ones were read again (or dropped). */
function updateDataSources(project: Project, previous: Map<string, DataFile>, files: readonly string[]): Map<string, DataFile> {
  const sources = new Map(previous);
  for (const file of files) {
    const name = path.basename(file).replace(/\.ya?ml$/i, '');
    if (statIsFile(file)) sources.set(name, { name, file: relative(project, file), text: readFileSync(file, 'utf8') });
    else sources.delete(name);
  }
  return sources;
}

/** The names of `data` whose value differs. */
function changedDataNames(before: Record<string, unknown>, after: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  if (before === after) return names;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) names.add(name);
  }
  return names;
}

/** Everything read afresh: the first build, in the order of `build`'s stages. */
async function firstInputs(project: Project, bundler: DevBundler, images: ImageStage, options: IncrementalOptions, now: Date): Promise<Inputs> {
  const { byFile, articles } = await loadAllArticles(project, options, now);
  const islands = await findIslands(project);
  // In the order `build` reads them (full-build.ts's startInputs): a failure of each is reported alike.
  const [shell, dataFiles, server] = await inOrder<[DocumentShell, DataFile[], ServerBundle, void, void]>([
    loadTemplate(project.template, relative(project, project.template)),
    readDataFiles(project.root, project.contentDir),
    bundler.server(),
    bundler.scripts(islands),
    bundler.styles(),
  ]);
  const dataSources = new Map(dataFiles.map((file) => [file.name, file]));
  const settings = await siteSettings(project, server.module, [...dataSources.values()], { ...options, siteImages: images.siteImages });
  const publicFiles = new Set(await listFiles(project.publicDir));
  const client = bundler.client(islands);
  const unchanged = { listChanged: false, fields: new Map(), changedData: new Set<string>(), publicChanged: true, styleChanged: false };
  return { shell, server, client, islands, dataSources, settings, byFile, articles, publicFiles, renderAll: true, ...unchanged };
}

/** The inputs after a change: only what the changed files affect is read or bundled again. */
async function changedInputs(
  project: Project,
  bundler: DevBundler,
  images: ImageStage,
  previous: State,
  kinds: Map<ChangeKind, string[]>,
  options: IncrementalOptions,
  now: Date,
): Promise<Inputs> {
  const articleChange = await updateArticles(project, previous, kinds.get('article') ?? [], options, now);
  const codeChanged = kinds.has('code');
  const islands = codeChanged ? await findIslands(project) : previous.islands;
  const styleChanged = kinds.has('style');
  const [shell, server] = await inOrder<[DocumentShell, ServerBundle, void, void]>([
    kinds.has('template') ? loadTemplate(project.template, relative(project, project.template)) : Promise.resolve(previous.shell),
    codeChanged ? bundler.server() : Promise.resolve(previous.server),
    codeChanged ? bundler.scripts(islands) : Promise.resolve(),
    styleChanged ? bundler.styles() : Promise.resolve(),
  ]);
  const client = codeChanged || styleChanged ? bundler.client(islands) : previous.client;
  const dataSources = kinds.has('data') ? updateDataSources(project, previous.dataSources, kinds.get('data')!) : previous.dataSources;
  // A public file may be an image the pages receive processed (data.images): the data is made again.
  const settingsChanged = kinds.has('data') || codeChanged || kinds.has('public');
  const settings = settingsChanged
    ? await siteSettings(project, server.module, [...dataSources.values()], { ...options, siteImages: images.siteImages })
    : previous.settings;
  const changedData = changedDataNames(previous.settings.data, settings.data);
  const publicChanged = kinds.has('public');
  const publicFiles = publicChanged ? new Set(await listFiles(project.publicDir)) : previous.publicFiles;
  const renderAll = codeChanged || kinds.has('template') || changedData.has(project.siteConfigName) || settings.baseUrl !== previous.settings.baseUrl;
  return { shell, server, client, islands, dataSources, settings, ...articleChange, publicFiles, renderAll, styleChanged, changedData, publicChanged };
}

/** Renders pages in route order; the first that fails stops the rebuild, as in `build`. */
function renderPages(jobs: readonly PageJob[], context: RenderContext): Map<string, RenderedPage> {
  const pages = new Map<string, RenderedPage>();
  const known = new Set(context.articles);
  for (const job of jobs) {
    const reads = emptyReads();
    const { html } = renderDocument(job, context, reads);
    pages.set(job.outputPath, { job, html, reads, links: pageLinks({ path: job.path, html, file: sourceFileOf(job, known) }) });
  }
  return pages;
}

/** A page's entry with each article named by its slug: a page handed other articles (a tag page's list) renders again. */
const entryShape = (job: PageJob) =>
  JSON.stringify(job.entry, (_, value) => (value && typeof value === 'object' && typeof (value as Article).slug === 'string' && 'markdown' in value ? `article:${(value as Article).slug}` : value));

/** Whether two jobs of one page were handed the same entry (the same job, when the routes were not expanded again). */
const sameEntry = (before: PageJob, after: PageJob) => before === after || entryShape(before) === entryShape(after);

/** The pages whose inputs changed: what they read (articles, fields, data), or everything. */
function pagesToRender(jobs: readonly PageJob[], previous: State | undefined, inputs: Inputs): PageJob[] {
  if (!previous || inputs.renderAll) return [...jobs];
  const change = { listChanged: inputs.listChanged, fields: inputs.fields };
  return jobs.filter((job) => {
    const page = previous.pages.get(job.outputPath);
    if (!page || !sameEntry(page.job, job)) return true;
    if (inputs.changedData.size > 0 && [...page.reads.dataKeys].some((key) => inputs.changedData.has(key))) return true;
    return dependsOnArticles(page.reads, change);
  });
}

/** Every page of the site: the ones just rendered, the others as they were (pointing at a new style sheet). */
function mergePages(jobs: readonly PageJob[], rendered: Map<string, RenderedPage>, previous: State | undefined, inputs: Inputs): Map<string, RenderedPage> {
  const pages = new Map<string, RenderedPage>();
  const before = previous?.client;
  const from = before?.styleUrl;
  const to = inputs.client.styleUrl;
  const swap = inputs.styleChanged && from && to && from !== to;
  for (const job of jobs) {
    const fresh = rendered.get(job.outputPath);
    let page = fresh ?? { ...previous!.pages.get(job.outputPath)!, job };
    if (!fresh && swap) {
      const inline = { before: before!.inlineStyle, after: inputs.client.inlineStyle };
      page = { ...page, html: swapStyleSheet(page.html, from, to, inline) };
    }
    pages.set(job.outputPath, page);
  }
  return pages;
}

/**
 * sitemap, robots, feed, manifest and _headers, made again when what they read may have changed:
 * the sitemap reads the list, the dates and drafts, the feed the newest articles, _headers the style's hash.
 */
function siteFilesFor(previous: State | undefined, inputs: Inputs, jobs: readonly PageJob[], now: Date): OutputFile[] {
  const feedLimit = inputs.settings.feed?.limit ?? FEED_LIMIT;
  const inFeed = new Set(inputs.articles.slice(0, feedLimit).map((article) => article.slug));
  const regenerate =
    !previous ||
    inputs.renderAll ||
    inputs.listChanged ||
    inputs.changedData.size > 0 ||
    inputs.publicChanged ||
    inputs.styleChanged ||
    [...inputs.fields].some(([slug, fields]) => inFeed.has(slug) || fields.has('date') || fields.has('data') || fields.has('draft'));
  return regenerate ? generatedFiles({ ...inputs, server: inputs.server.module }, jobs, inputs.publicFiles, now) : previous.generated;
}

/** The drawn files, drawn again (or taken from their cache) when what they are drawn from may have changed. */
async function drawnFilesFor(project: Project, previous: State | undefined, inputs: Inputs, memo: DrawnMemo): Promise<{ drawn: OutputFile[]; drawnReads: PageReads }> {
  if (previous && !inputs.renderAll && !readsChanged(previous.drawnReads, inputs)) return previous;
  const drawnReads = emptyReads();
  return { drawn: await drawnFiles(inputs, project, { memo, reads: drawnReads }), drawnReads };
}

/** Runs the pipeline's page stages and checks on new inputs, in `build`'s order; throws before anything is written. */
async function assemble(project: Project, stages: { images: ImageStage; drawn: DrawnMemo; links: LinkCheckMemo }, previous: State | undefined, inputs: Inputs, now: Date): Promise<State> {
  const { images } = stages;
  // entries() may read any field of an article (tag pages read its tags): what it read changed, the routes are expanded again.
  const { jobs, routeReads } =
    !previous || inputs.renderAll || readsChanged(previous.routeReads, inputs)
      ? expandTracked(inputs.server.module.site, inputs.articles, inputs.settings.data)
      : { jobs: withReplacedArticles(previous.jobs, previous.articles, inputs.articles), routeReads: previous.routeReads };
  checkPublicClashes(inputs.client, jobs, inputs.publicFiles, project.publicDir);
  await images.processEach(inputs.articles); // the articles a change made (all at first)
  const articleImages = images.files(inputs.articles);
  const context = renderContext({ ...inputs, server: inputs.server.module }, now, project.root);
  const rendered = renderPages(pagesToRender(jobs, previous, inputs), context);
  const pages = mergePages(jobs, rendered, previous, inputs);
  const { drawn, drawnReads } = await drawnFilesFor(project, previous, inputs, stages.drawn);
  const generated = siteFilesFor(previous, inputs, jobs, now);
  checkSiteOutput(
    project,
    { client: inputs.client, jobs, publicFiles: inputs.publicFiles, images: [...inputs.settings.images, ...articleImages], drawn, generated },
    [...pages.values()].map((page) => page.links),
    { feed: inputs.settings.feed, memo: stages.links },
  );
  const { renderAll: _r, styleChanged: _s, listChanged: _l, fields: _f, changedData: _d, publicChanged: _p, ...kept } = inputs;
  return { ...kept, jobs, routeReads, pages, articleImages, drawn, drawnReads, generated };
}

/** Every file the output folder should hold besides the public ones. */
function outputFiles(state: State): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  for (const file of [...assetFiles(state.client), ...state.settings.images, ...state.articleImages, ...state.drawn, ...state.generated]) {
    files.set(file.path, file.contents);
  }
  for (const page of state.pages.values()) files.set(page.job.outputPath, page.html);
  return files;
}

/** What a reload needs to know of a rebuild. */
function describeUpdate(previous: State | undefined, state: State, changed: Set<string>, inputs: Inputs, kinds: Map<ChangeKind, string[]>) {
  const pages = state.jobs.filter((job) => changed.has(job.outputPath)).map((job) => job.path);
  const removed = previous ? [...previous.pages.values()].filter((page) => !state.pages.has(page.job.outputPath)).map((page) => page.job.path) : [];
  const onlyStyle = inputs.styleChanged && kinds.size === 1;
  const styleSwap = onlyStyle ? { from: previous?.client.styleUrl, to: state.client.styleUrl } : undefined;
  return { pages, removed, styleSwap, reloadAll: !previous || inputs.renderAll || inputs.publicChanged };
}

/**
 * A build that stays in memory and, given the files that changed, redoes only what they affect:
 * an article edit renders that article and the pages that read what changed in it, not the site.
 * Every rebuild checks the whole site as `build` does, and writes nothing unless all is well.
 */
export async function createIncrementalBuild(options: IncrementalOptions) {
  const project = projectAt(path.resolve(options.root));
  const outDir = path.resolve(project.root, options.outDir);
  const now = options.now ?? (() => new Date());
  const bundler = await createDevBundler(project, outDir);
  const images = createImageStage(project);
  const drawnMemo: DrawnMemo = new Map();
  const linkMemo = createLinkCheckMemo();
  let output = createInPlaceOutput(outDir, project.publicDir);
  let state: State | undefined;
  /** When the last good rebuild started (wall clock): cache entries written since are spared. */
  let lastGood = Date.now();

  /** Rebuilds from the last good state (or from nothing); all or nothing. */
  async function run(changed: Iterable<string>): Promise<UpdateResult> {
    const started = performance.now();
    const startedAt = Date.now();
    const time = now();
    const previous = state;
    const kinds = classifyAll(project, changed, imageReaders(previous, images, project));
    const inputs = previous
      ? await changedInputs(project, bundler, images, previous, kinds, options, time)
      : await firstInputs(project, bundler, images, options, time);
    const next = await assemble(project, { images, drawn: drawnMemo, links: linkMemo }, previous, inputs, time);
    if (!previous) {
      await rm(outDir, { recursive: true, force: true });
      await mkdir(outDir, { recursive: true });
      output = createInPlaceOutput(outDir, project.publicDir);
    }
    const written = output.sync(outputFiles(next), next.publicFiles);
    state = next;
    lastGood = startedAt;
    return { ...describeUpdate(previous, next, written, inputs, kinds), durationMs: performance.now() - started };
  }

  return {
    project,
    outDir,
    /** Builds everything into the output folder, replacing what was there. */
    initial: () => {
      state = undefined;
      return run([]);
    },
    /** Applies a set of changed files (relative to the root or absolute). All or nothing. */
    update: (changed: Iterable<string>) => run(changed),
    /**
     * Removes the processed images the site no longer shows from the cache, as `build` does; the
     * caller runs it once a rebuild was announced, so that it never delays a reload.
     */
    pruneCaches(): void {
      if (state) images.pruneUnused(state.articles, state.settings.images, lastGood);
    },
    dispose: () => bundler.dispose(),
    hasBuilt: () => state !== undefined,
  };
}

export type IncrementalBuild = Awaited<ReturnType<typeof createIncrementalBuild>>;
