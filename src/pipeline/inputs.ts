// The pipeline's first stage: the template, the data files, both bundles and the articles, read
// afresh on a first run (every build) or, after a change, only what the changed files affect.
// Bundling is the strategy's: one-shot bundles for `build`, esbuild contexts kept alive for dev.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { articleText, emptyArticle, isArticleName, readArticleSources } from '../content/article-file.ts';
import { isPublished, type Article } from '../content/article.ts';
import { parseArticle } from '../content/article-parser.ts';
import { bundleClient, collectClientBundle, findIslands, scriptBuildOptions, styleBuildOptions, type ClientBundle, type IslandSource } from '../bundle/bundle-client.ts';
import { bundleServer, loadServerModule, serverBuildOptions, type ServerBundle } from '../bundle/bundle-server.ts';
import { fromEsbuildFailure } from '../bundle/esbuild-plugins.ts';
import { codeStampOf } from '../bundle/module-code.ts';
import { conversionItem, convertPending, parseWithCache, type ConvertedPair, type ParsedWithCache } from '../content/article-store.ts';
import { needsSiteModule, type MarkdownOptions } from '../content/markdown-options.ts';
import { markdownStamp } from '../content/markdown-plugins.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import type { ArticleConverter, ArticleToConvert, ConvertedArticle } from '../content/conversion.ts';
import { drawHere } from '../content/drawing.ts';
import { createMarkdownPool, type EditConverter, type MarkdownPool } from '../content/markdown-pool.ts';
import { readDataFiles, type DataFile } from '../content/data.ts';
import { changedFields } from '../render/dependencies.ts';
import { SsgError } from '../errors.ts';
import { listFiles } from '../output/output.ts';
import { ASSETS_DIR, type Project } from '../project.ts';
import { loadTemplate, type DocumentShell } from '../render/template.ts';
import type { ImageStage } from './images.ts';
import type { Bundler, ChangeKind, Conversion, Inputs, RunOptions, State, Strategy } from './pipeline-types.ts';
import { inOrder, publishArticles, siteSettings, type SiteSettings } from './stages.ts';

export type { ChangeKind } from './pipeline-types.ts';

/** The one-shot bundles of `build`, each taken from its cache while its sources are as they were. */
export function oneShotBundler(project: Project, outDir: string): Bundler {
  return {
    server: () => bundleServer(project),
    client: () => bundleClient(project, path.join(outDir, ASSETS_DIR)),
    dispose: async () => {},
  };
}

/** Dev mode's bundles: esbuild contexts kept alive and rebuilt on a change. */
export async function contextBundler(project: Project, outDir: string): Promise<Bundler> {
  const assetsDir = path.join(outDir, ASSETS_DIR);
  const failEsbuild = (error: unknown, code: 'SiteCompileFailed' | 'ClientCompileFailed') => {
    throw fromEsbuildFailure(error, code, project.root);
  };
  const serverContext = await esbuild.context(serverBuildOptions(project));
  const styleContext = existsSync(project.stylesEntry) ? await esbuild.context(styleBuildOptions(project, assetsDir)) : undefined;
  let scriptContext: esbuild.BuildContext | undefined;
  let islands: IslandSource[] = [];
  let scriptIslands: string | undefined;
  let scriptResult: esbuild.BuildResult | undefined;
  let styleResult: esbuild.BuildResult | undefined;
  const scripts = async () => {
    islands = await findIslands(project);
    const key = islands.map((island) => island.file).join('\n');
    if (key !== scriptIslands) {
      await scriptContext?.dispose();
      scriptContext = islands.length > 0 ? await esbuild.context(scriptBuildOptions(project, islands, assetsDir)) : undefined;
      scriptIslands = key;
    }
    scriptResult = await scriptContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  };
  const styles = async () => {
    styleResult = await styleContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  };
  return {
    async server() {
      const result = await serverContext.rebuild().catch((error) => failEsbuild(error, 'SiteCompileFailed'));
      return loadServerModule(project, result);
    },
    async client(changed) {
      await inOrder([changed.code ? scripts() : Promise.resolve(), changed.style ? styles() : Promise.resolve()]);
      return collectClientBundle(project, islands, assetsDir, scriptResult, styleResult);
    },
    async dispose() {
      await Promise.all([serverContext.dispose(), styleContext?.dispose(), scriptContext?.dispose()]);
    },
  };
}

export const relative = (project: Project, file: string) => path.relative(project.root, file).split(path.sep).join('/');

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
 * The changed files by kind. An image file an article shows (beside it or in the public folder)
 * changes that article too: it is read and its images processed again.
 */
export function classifyAll(project: Project, changed: Iterable<string>, state: State | undefined, images: ImageStage): Map<ChangeKind, string[]> {
  const readers = new Map<string, string[]>();
  for (const article of state?.articles ?? []) {
    for (const source of images.sources(article)) readers.set(source, [...(readers.get(source) ?? []), path.resolve(project.root, article.file)]);
  }
  const kinds = new Map<ChangeKind, Set<string>>();
  const add = (kind: ChangeKind | undefined, file: string) => kind && kinds.set(kind, (kinds.get(kind) ?? new Set()).add(file));
  for (const changedFile of changed) {
    const file = path.resolve(project.root, changedFile);
    add(classify(project, file), file);
    for (const article of readers.get(file) ?? []) add('article', article);
  }
  return new Map([...kinds].map(([kind, files]) => [kind, [...files]]));
}

/**
 * Reads a file that just changed. An editor that truncates and then writes is seen in between as
 * an empty file: an empty read is given a moment and read again before it is believed.
 */
async function readSettled(file: string): Promise<Buffer> {
  const bytes = readFileSync(file);
  if (bytes.length > 0) return bytes;
  await new Promise((resolve) => setTimeout(resolve, 25));
  return readFileSync(file);
}

const statIsFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

/** The site's Markdown settings for a run: its plugins' options, their stamp, and the module copy helpers import. */
export interface SiteMarkdown {
  options?: MarkdownOptions;
  /** Part of every article's Markdown cache key ('' without plugins). */
  stamp: string;
  /** A copy of the site's compiled module, for the helper processes' Markdown; given only when the site has plugins. */
  siteModule?: string;
  /** The same copy, for the helpers' drawing; written when the site has drawers. */
  drawModule?: string;
  /** Removes the copy. */
  dispose(): void;
}

const settingsOf = new WeakMap<ServerBundle, { options?: MarkdownOptions; stamp: string }>();

/** A bundle's Markdown options and their stamp, worked out once per bundle. */
function markdownSettingsOf(bundle: ServerBundle | undefined): { options?: MarkdownOptions; stamp: string } {
  if (!bundle) return { stamp: '' };
  let settings = settingsOf.get(bundle);
  if (!settings) {
    const options = (bundle.module.site as { markdown?: MarkdownOptions }).markdown;
    // A plugin of the site's own counts by its module and what that imports; a package's by its text (its version is in the stamp).
    const codeOf = (fn: (...args: never[]) => unknown) => codeStampOf(bundle, fn) ?? String(fn);
    settingsOf.set(bundle, (settings = { options, stamp: markdownStamp(options, bundle.sources, codeOf) }));
  }
  return settings;
}

const SITE_MODULE_FILE = /^markdown-site-(\d+)-[\w-]+\.mjs$/;

/** How many runs hold each copy of a site module now (see siteMarkdownOf). */
const moduleCopyHolders = new Map<string, number>();

/**
 * The Markdown settings of the site whose bundle this is (none while the bundle failed: the run
 * fails too), with a copy of its module for the helpers when they need one: for its plugins, and
 * for its drawers (`drawing`, the default). The copy is named after its code: a helper kept
 * between runs (dev's) imports a changed site anew.
 */
export function siteMarkdownOf(project: Project, bundle: ServerBundle | undefined, { drawing = true } = {}): SiteMarkdown {
  const { options, stamp } = markdownSettingsOf(bundle);
  const plugins = Boolean(stamp && needsSiteModule(options));
  const drawers = drawing && Boolean(bundle && (bundle.module.site as { drawers?: object }).drawers);
  if (!bundle || (!plugins && !drawers)) return { options, stamp, dispose: () => {} };
  mkdirSync(project.cacheDir, { recursive: true });
  removeFilesOfEndedProcesses(project.cacheDir, SITE_MODULE_FILE);
  const code = createHash('sha256').update(bundle.code).digest('base64url').slice(0, 12);
  const siteModule = path.join(project.cacheDir, `markdown-site-${process.pid}-${code}.mjs`);
  // One copy per code, shared by the runs that hold it (dev's warm-up and an edit's run): written
  // by the first, removed by the last, never rewritten or removed while a helper may import it.
  const holders = moduleCopyHolders.get(siteModule) ?? 0;
  if (holders === 0) writeFileSync(siteModule, bundle.code);
  moduleCopyHolders.set(siteModule, holders + 1);
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    const left = (moduleCopyHolders.get(siteModule) ?? 1) - 1;
    if (left > 0) return void moduleCopyHolders.set(siteModule, left);
    moduleCopyHolders.delete(siteModule);
    rmSync(siteModule, { force: true });
  };
  return { options, stamp, ...(plugins ? { siteModule } : {}), ...(drawers ? { drawModule: siteModule } : {}), dispose };
}

/** What the helper processes converting articles need: where their images are, and the site's plugins and reserved ids. */
export function articleConverter(images: ImageStage, markdown: SiteMarkdown): ArticleConverter {
  return {
    helperSettings: {
      ...images.helperSettings,
      ...(markdown.siteModule ? { siteModule: markdown.siteModule } : {}),
      ...(markdown.options?.reservedIds?.length ? { reservedIds: [...markdown.options.reservedIds] } : {}),
    },
  };
}

/**
 * Parses one changed article file (its conversion starts with the run's, see updateArticles). A
 * front matter error is kept to be reported with the others in file order.
 */
async function parseChanged(project: Project, file: string, options: RunOptions): Promise<Article | SsgError | undefined> {
  if (!statIsFile(file)) return undefined; // deleted, or a folder named x.md (its articles come on their own)
  try {
    const name = relative(project, file);
    const text = articleText(await readSettled(file), name, options.limits);
    if (text === undefined) {
      options.warn(emptyArticle(name));
      return undefined;
    }
    return parseArticle({ file: name, text }, { now: options.now, warn: options.warn, limits: options.limits, files: { root: project.root, publicDir: project.publicDir, contentDir: project.contentDir } });
  } catch (error) {
    if (error instanceof SsgError) return error;
    throw error;
  }
}

/** Conversions started before the run's conversion stage, by file: the item each was given and its result. */
type StartedConversions = Map<string, { item: ArticleToConvert; result: Promise<ConvertedArticle> }>;

/**
 * Dev's edit converter as the pool a run converts with: one article at a time, in the helper it
 * keeps between runs (an article designed to hang is stopped there, and dev goes on serving). An
 * item whose conversion was `started` already, as given now, takes that one.
 */
function editsAsPool(edits: EditConverter, converter: ArticleConverter, started: StartedConversions): Pick<MarkdownPool, 'convert'> {
  const sameItem = (a: ArticleToConvert, b: ArticleToConvert) => a.file === b.file && a.markdown === b.markdown && a.bodyLine === b.bodyLine;
  return {
    async convert(items, onBatch) {
      const results: ConvertedArticle[] = [];
      for (const [index, item] of items.entries()) {
        const early = started.get(item.file);
        const result = await (early && sameItem(early.item, item) ? early.result : edits.convert(item, converter));
        results.push(result);
        onBatch?.([index], [result]);
      }
      return results;
    },
  };
}

/**
 * Converts the pending articles in helper processes and admits each to the image stage as it
 * lands; the others (from the Markdown cache, or the last run) at once.
 */
function startConversion(
  project: Project,
  parsed: Pick<ParsedWithCache, 'pending' | 'images'> & { cache?: ParsedWithCache['cache'] },
  articles: readonly Article[],
  images: ImageStage,
  markdown: SiteMarkdown,
  options: RunOptions,
  /** The site, whose drawers draw its generated files. */
  drawing?: { site: { drawers?: unknown } },
  /** What converts the pending articles instead of a pool of this run's (dev's edits: its kept helper). */
  edits?: Pick<MarkdownPool, 'convert'>,
): Conversion {
  const { pending } = parsed;
  const waiting = new Set(pending.map((item) => item.article));
  const published = new Set(articles);
  let convertedSoFar = 0;
  // Each listed article (as the routes hold it) and its converted value, once its images are ready too.
  const ready = new Map<Article, Article>();
  const converted = new Set<Article>();
  let listener: (articles: Article[]) => void = () => {};
  const admit = (pairs: readonly ConvertedPair[]) => {
    const listedOf = new Map(pairs.map(([listed, converted]) => [converted, listed]));
    images.admit(pairs.map(([, article]) => ({ article, images: parsed.images.get(article) })), (imagesDone) => {
      const listed = imagesDone.map((article) => listedOf.get(article)!);
      imagesDone.forEach((article, index) => {
        ready.set(listed[index]!, article);
        converted.add(article);
      });
      listener(listed);
    });
  };
  admit(articles.filter((article) => !waiting.has(article)).map((article) => [article, article] as const));
  // The helpers convert, and draw the site's files when it has drawers and many to draw.
  const drawers = (drawing?.site.drawers ?? undefined) as Parameters<typeof drawHere>[0];
  const here = drawing ? drawHere(drawers, project.root) : undefined;
  const pool = createMarkdownPool({
    cacheDir: project.cacheDir,
    converter: articleConverter(images, markdown),
    interrupts: options.interrupts,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(here && markdown.drawModule ? { drawing: { siteModule: markdown.drawModule, root: project.root, here } } : {}),
  });
  const conversion = parsed.cache || edits
    ? convertPending(parsed, edits ?? pool, {
        warn: options.warn,
        onConverted: (done) => {
          options.onProgress?.((convertedSoFar += done.length), waiting.size);
          admit(done.filter(([listed]) => published.has(listed)));
        },
      })
    : Promise.resolve();
  const done = conversion.then(() => images.settle());
  done.catch(() => {}); // reported where it is awaited
  const close = async () => {
    await pool.close();
    markdown.dispose();
  };
  const release = async () => {
    await pool.release();
    markdown.dispose();
  };
  const draw = here && (markdown.drawModule ? pool.draw : here);
  return { done, close, release, ready, converted, converting: pending.length, listen: (next) => (listener = next), ...(draw ? { draw } : {}) };
}

type ArticleInputs = Pick<Inputs, 'byFile' | 'articles' | 'listChanged' | 'fields' | 'conversion' | 'saveArticles' | 'articleKeys' | 'markdownStamp'>;

/**
 * The articles of a run: all on a first run, or when the site's Markdown settings changed (every
 * article is converted again, as the cache's key says); else the changed files.
 */
async function articleInputs(project: Project, strategy: Strategy<unknown>, previous: State | undefined, changes: ReadonlyMap<ChangeKind, readonly string[]>, server: Promise<ServerBundle>, options: RunOptions): Promise<ArticleInputs> {
  if (!previous) return readAllArticles(project, strategy, server, options);
  if (changes.has('code')) {
    const bundle = await server.catch(() => undefined);
    if (bundle && markdownSettingsOf(bundle).stamp !== previous.markdownStamp) return readAllArticles(project, strategy, server, options);
  }
  return updateArticles(project, strategy, previous, changes.get('article') ?? [], server, options);
}

/** Every article: files seen in an earlier build skip their YAML and Markdown (both cached). */
async function readAllArticles(project: Project, strategy: Strategy<unknown>, server: Promise<ServerBundle>, options: RunOptions): Promise<ArticleInputs> {
  const { now, warn } = options;
  const sources = await readArticleSources(project.root, project.articlesDir, warn, options.limits);
  // The site's plugins are part of each article's cache key: known once its code is bundled.
  const markdown = siteMarkdownOf(project, await server.catch(() => undefined));
  const store = await parseWithCache(sources, { now, warn, limits: options.limits, cacheDir: project.cacheDir, imageDir: strategy.images.cacheDir, root: project.root, publicDir: project.publicDir, contentDir: project.contentDir, siteStamp: markdown.stamp, lazyHtml: strategy.lazyHtml === true });
  const byFile = new Map(store.all.map((article) => [article.file, article]));
  const publish = { drafts: options.drafts, future: options.future, now };
  const articles = publishArticles(byFile, publish);
  // Held back (drafts, future posts) are not converted, unless they may come due while this runs.
  const pending = strategy.convertHeldBack ? store.pending : store.pending.filter((item) => isPublished(item.article, publish));
  const site = (await server.catch(() => undefined))?.module.site;
  const conversion = startConversion(project, { ...store, pending }, articles, strategy.images, markdown, options, site && { site });
  const saveArticles = async () => {
    await conversion.done.catch(() => {});
    if (store.stale) await store.cache.save();
  };
  return { byFile: byFile as Map<string, Article>, articles, listChanged: false, fields: new Map(), conversion, saveArticles, articleKeys: store.keys, markdownStamp: markdown.stamp };
}

/**
 * The changed article files parsed again (none: the list is published again, as future posts
 * come due while dev runs): the list, and what changed in each article.
 */
async function updateArticles(project: Project, strategy: Strategy<unknown>, previous: State, files: readonly string[], server: Promise<ServerBundle>, options: RunOptions): Promise<ArticleInputs> {
  const bundle = await server.catch(() => undefined);
  // A run that updates articles is dev's, whose strategy keeps the helper for edits between runs.
  const edits = strategy.edits;
  if (!edits) throw new Error('a strategy that updates articles must keep an edit converter (Strategy.edits)');
  const parsed = new Map<string, Article | SsgError>(previous.byFile);
  /** The articles to convert: the changed files, converted while the pages that do not show them are made. */
  const pending: Array<{ article: Article; key: string }> = [];
  // Edits are converted in a helper kept between runs, with the site's plugins (a copy of its
  // module). Each changed article's conversion starts as soon as it is parsed: the helper works
  // while this process makes the list and the pages that do not show it.
  let siteMarkdown: SiteMarkdown | undefined;
  let converter: ArticleConverter | undefined;
  const started: StartedConversions = new Map();
  try {
    for (const file of files) {
      const name = relative(project, file);
      const result = await parseChanged(project, file, options);
      if (!result) parsed.delete(name);
      else parsed.set(name, result);
      if (!result || result instanceof SsgError) continue;
      pending.push({ article: result, key: result.file });
      siteMarkdown ??= { ...siteMarkdownOf(project, bundle, { drawing: false }), stamp: previous.markdownStamp };
      converter ??= articleConverter(strategy.images, siteMarkdown);
      const item = conversionItem(result);
      const converting = edits.convert(item, converter);
      converting.catch(() => {}); // taken by the run's conversion, or the run failed before it
      started.set(item.file, { item, result: converting });
    }
    // The requests reach the helper a few promise steps on: let them go before the list is made.
    if (started.size > 0) await new Promise((resolve) => setImmediate(resolve));
    return listUpdated(project, strategy, previous, { parsed, pending, edits, started, siteMarkdown, converter }, bundle, options);
  } catch (error) {
    // The helper may still be converting what it was sent, with this copy of the site's module:
    // it is removed once that is done (a helper started in the meantime would not find it).
    const copy = siteMarkdown;
    if (copy) void Promise.allSettled([...started.values()].map((conversion) => conversion.result)).then(() => copy.dispose());
    throw error;
  }
}

/** The list published again after the changed files were parsed, and its conversion started. */
function listUpdated(
  project: Project,
  strategy: Strategy<unknown>,
  previous: State,
  edited: {
    parsed: Map<string, Article | SsgError>;
    pending: Array<{ article: Article; key: string }>;
    edits: EditConverter;
    started: StartedConversions;
    siteMarkdown?: SiteMarkdown;
    converter?: ArticleConverter;
  },
  bundle: ServerBundle | undefined,
  options: RunOptions,
): ArticleInputs {
  const { parsed, pending, edits, started } = edited;
  const publish = { drafts: options.drafts, future: options.future, now: options.now };
  const articles = publishArticles(parsed, publish);
  const byFile = parsed as Map<string, Article>; // publishArticles threw if any was an error
  // One held back until now (a future post that came due, its file as it was) is converted now,
  // with its images: a held-back article's are never made ready, and the value the last runs kept
  // of it may not be converted at all.
  const wasPublished = new Set(previous.articles);
  const converting = new Set(pending.map((item) => item.article));
  for (const article of articles) {
    if (!wasPublished.has(article) && !converting.has(article)) pending.push({ article, key: article.file });
  }
  const listChanged =
    articles.length !== previous.articles.length || articles.some((article, index) => previous.articles[index]!.slug !== article.slug);
  const before = new Map(previous.articles.map((article) => [article.slug, article]));
  // What changed in each article, as parsed: one being converted differs from its last value in
  // its HTML, headings and reading time too (as made from an earlier body), which the pages that
  // show them are made again for, once it is converted.
  const fields = new Map<string, Set<string>>();
  for (const article of articles) {
    const old = before.get(article.slug);
    const changed = old && old !== article ? changedFields(old, article) : undefined;
    if (changed && changed.size > 0) fields.set(article.slug, changed);
  }
  const markdown: SiteMarkdown =
    edited.siteMarkdown ?? { ...(pending.length > 0 ? siteMarkdownOf(project, bundle, { drawing: false }) : { options: markdownSettingsOf(bundle).options, dispose: () => {} }), stamp: previous.markdownStamp };
  const converter = edited.converter ?? articleConverter(strategy.images, markdown);
  const conversion = startConversion(project, { pending, images: new Map() }, articles, strategy.images, markdown, options, bundle && { site: bundle.module.site }, editsAsPool(edits, converter, started));
  return { byFile, articles, listChanged, fields, conversion, saveArticles: async () => {}, markdownStamp: previous.markdownStamp };
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

type Sources = [ArticleInputs, DocumentShell, Map<string, DataFile>, ServerBundle, ClientBundle];

/**
 * The articles, template, data files and bundles: everything on a first run, after that only what
 * the changed files affect. All start at once; when several fail, the first in this order is
 * reported, whatever finished first.
 */
async function readSources(project: Project, strategy: Strategy<unknown>, previous: State | undefined, changes: ReadonlyMap<ChangeKind, readonly string[]>, options: RunOptions): Promise<Sources> {
  const changed = (kind: ChangeKind) => !previous || changes.has(kind);
  const same = <T,>(value: T) => Promise.resolve(value);
  const { bundler } = strategy;
  const code = changed('code');
  const style = changed('style');
  const server = code ? bundler.server() : same(previous!.server);
  server.catch(() => {}); // reported in order below
  const articles = articleInputs(project, strategy, previous, changes, server, options);
  const data = previous
    ? same(changed('data') ? updateDataSources(project, previous.dataSources, changes.get('data')!) : previous.dataSources)
    : readDataFiles(project.root, project.contentDir).then((files) => new Map(files.map((file) => [file.name, file])));
  try {
    return await inOrder<Sources>([
      articles,
      changed('template') ? loadTemplate(project.template, relative(project, project.template)) : same(previous!.shell),
      data,
      server,
      code || style ? bundler.client({ code, style }) : same(previous!.client),
    ]);
  } catch (error) {
    await (await articles.catch(() => undefined))?.conversion.close();
    throw error;
  }
}

/** The pipeline's first stage: the inputs of a run and what changed in them since `previous`. */
export async function readInputs(
  project: Project,
  strategy: Strategy<unknown>,
  previous: State | undefined,
  changes: ReadonlyMap<ChangeKind, readonly string[]>,
  options: RunOptions,
): Promise<Inputs> {
  const [articles, shell, dataSources, server, client] = await readSources(project, strategy, previous, changes, options);
  try {
    const changed = (kind: ChangeKind) => !previous || changes.has(kind);
    // A public file may be an image the pages receive processed (data.images): the data is made again.
    const settings: SiteSettings =
      changed('data') || changed('code') || changed('public')
        ? await siteSettings(project, server.module, [...dataSources.values()], { ...options, siteImages: strategy.images.siteImages })
        : previous!.settings;
    const publicFiles = changed('public') ? new Set(await listFiles(project.publicDir)) : previous!.publicFiles;
    const changedData = previous ? changedDataNames(previous.settings.data, settings.data) : new Set<string>();
    const renderAll = !previous || changed('code') || changed('template') || changedData.has(project.siteConfigName) || settings.baseUrl !== previous.settings.baseUrl;
    const styleChanged = previous !== undefined && changes.has('style');
    return { ...articles, shell, server, client, dataSources, settings, publicFiles, renderAll, styleChanged, changedData, publicChanged: changed('public') };
  } catch (error) {
    await articles.conversion.close();
    throw error;
  }
}
