// The stages `build` and dev mode share: what the site's settings are, which articles are
// published, which files the site will have, and the checks every build makes. Each is a plain
// function of its inputs, so a check added here holds in both.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { isPublished, sortNewestFirst, type Article } from '../content/article.ts';
import { duplicateSlug } from '../content/article-parser.ts';
import type { ClientBundle } from '../bundle/bundle-client.ts';
import type { ServerBundle, ServerModule } from '../bundle/bundle-server.ts';
import { addCspSources } from '../render/csp.ts';
import { parseDataFiles, type DataFile } from '../content/data.ts';
import { catalogueError, SsgError, SsgErrorList, type ErrorDetails } from '../errors.ts';
import { generateFiles, isSiteFilePath, type DrawMany, type DrawnMemo } from '../render/generated-files.ts';
import { trackReads, type PageReads } from '../render/dependencies.ts';
import { checkLinks, type CheckedPage, type HeldBackPage, type LinkCheckContext, type LinkCheckMemo, type PageLinks } from '../render/links.ts';
import { publicFileClash, type OutputFile } from '../output/output.ts';
import { relativeToRoot, type Project } from '../project.ts';
import type { RenderContext } from '../render/render.ts';
import type { PageJob } from '../render/routes.ts';
import type { DataSchema, FeedDefinition, GeneratedFile, SiteMeta } from '../render/site-definition.ts';
import { codeStampOf } from '../bundle/module-code.ts';
import { siteFiles } from '../render/site-files.ts';
import type { DocumentShell } from '../render/template.ts';

/** `https://example.com/` → `https://example.com`; anything but an absolute http(s) origin is refused. */
export function normalizeBaseUrl(value: unknown, source: string): string {
  const fail = (why: ErrorDetails<'BaseUrlInvalid'>) => catalogueError('BaseUrlInvalid', why, { file: source });
  if (typeof value !== 'string' || value === '') throw fail(['unset']);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(['notAbsolute', value]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(['notHttp', value]);
  if (url.pathname !== '/' || url.search || url.hash) throw fail(['hasPath', value]);
  return url.origin;
}

/** The base URL: the command line's, else `baseUrl` of the site config. */
export function resolveBaseUrl(project: Project, data: Record<string, unknown>, override: string | undefined): string {
  const siteConfig = data[project.siteConfigName] as { baseUrl?: unknown } | undefined;
  const configFile = `content/${project.siteConfigName}.yaml`;
  if (!override && !siteConfig) {
    throw catalogueError('SiteConfigMissing', [configFile]);
  }
  return normalizeBaseUrl(override ?? siteConfig?.baseUrl, override ? '--base-url' : configFile);
}

/** What the data files and the site definition make of the site as a whole. */
export interface SiteSettings {
  data: Record<string, unknown>;
  baseUrl: string;
  meta?: SiteMeta;
  feed?: FeedDefinition;
  /** The site's own images, processed (pages receive them as data.images). */
  images: OutputFile[];
}

/** The site's entry (site/index.tsx) as errors name it: from the project root, forward slashes. */
const siteEntryShown = (project: Project) => relativeToRoot(project, project.siteEntry).split(path.sep).join('/');

/**
 * Data checked against the site's schemas, the base URL, the site's own check, the site's images
 * (the image stage adds them to the data), then meta and feed, which may name an image.
 */
export async function siteSettings(
  project: Project,
  server: ServerModule,
  dataSources: readonly DataFile[],
  options: { baseUrl?: string; warn: (message: string) => void; siteImages: (server: ServerModule, data: Record<string, unknown>) => Promise<OutputFile[]> },
): Promise<SiteSettings> {
  const site = server.site;
  const data = parseDataFiles([...dataSources], (site.schemas ?? {}) as Record<string, DataSchema>);
  const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
  site.check?.(data, options.warn);
  const images = await options.siteImages(server, data);
  const feed = site.feed?.(data);
  // Written where it says: a path like ../x would land outside the output folder.
  if (feed && !(typeof feed.path === 'string' && isSiteFilePath(feed.path))) {
    throw catalogueError('GeneratedFilePathInvalid', ['feed', feed.path], { file: siteEntryShown(project) });
  }
  return { data, baseUrl, meta: site.meta?.(data), feed, images };
}

/** Which articles are published: drafts with `--drafts`, those dated after `now` with `--future`. */
export interface PublishOptions {
  drafts?: boolean;
  future?: boolean;
  now: Date;
}

/**
 * The published articles, newest first, from each file's article or the error it gave, in file
 * order: every bad file reported at once, two files with one slug named as `build` names them
 * (held-back drafts and future posts too: they are published one day).
 */
export function publishArticles(byFile: ReadonlyMap<string, Article | SsgError>, options: PublishOptions): Article[] {
  const errors: SsgError[] = [];
  const bySlug = new Map<string, Article>();
  for (const file of [...byFile.keys()].sort()) {
    const article = byFile.get(file)!;
    if (article instanceof SsgError) {
      errors.push(article);
      continue;
    }
    const existing = bySlug.get(article.slug);
    if (existing) errors.push(duplicateSlug(existing, article));
    else bySlug.set(article.slug, article);
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return sortNewestFirst([...bySlug.values()].filter((article) => isPublished(article, options)));
}

/** The articles a page was handed through its route entry: it can be rendered once they are converted. */
export function entryArticles(job: PageJob, known: ReadonlySet<Article>): Article[] {
  return Object.values(job.entry).filter((value): value is Article => known.has(value as Article));
}

/** The article file a page was made from: link errors name it, as the file to fix. */
export function sourceFileOf(job: PageJob, known: ReadonlySet<Article>): string | undefined {
  return entryArticles(job, known)[0]?.file;
}

/** What every page is rendered with. */
export function renderContext(
  inputs: { server: ServerModule; client: ClientBundle; shell: DocumentShell; articles: readonly Article[]; settings: SiteSettings },
  now: Date,
  root: string,
): RenderContext {
  const { settings } = inputs;
  return {
    server: inputs.server,
    client: inputs.client,
    shell: inputs.shell,
    articles: inputs.articles,
    data: settings.data,
    baseUrl: settings.baseUrl,
    now,
    root,
    meta: settings.meta,
    feed: settings.feed && { path: settings.feed.path, title: settings.feed.title },
  };
}

/** sitemap, robots, feed, manifest and _headers (those the public folder does not provide). */
export function generatedFiles(
  inputs: { server: ServerModule; client: ClientBundle; articles: readonly Article[]; settings: SiteSettings },
  jobs: readonly PageJob[],
  publicFiles: ReadonlySet<string>,
  now: Date,
): OutputFile[] {
  const { settings } = inputs;
  return siteFiles({
    jobs,
    articles: inputs.articles,
    baseUrl: settings.baseUrl,
    now,
    meta: settings.meta,
    feed: settings.feed,
    headers: addCspSources(inputs.server.site.headers?.(settings.data), inputs.client.inlineHashes),
    publicFiles,
  });
}

/**
 * The files the site draws (share images), each taken from the cache while its path, its key and
 * the site code are as before. Dev serves them as `build` writes them: pages point at them, and
 * keeps them in `memo` between rebuilds, so an edit reads none of the unchanged ones again.
 */
export function drawnFiles(
  inputs: { server: ServerBundle; articles: readonly Article[]; settings: SiteSettings },
  project: Project,
  how: { dev?: { memo: DrawnMemo; reads: PageReads }; carries?: (file: string, hash: string) => boolean; draw?: DrawMany; warn: (message: string) => void },
): Promise<OutputFile[]> {
  const { settings } = inputs;
  const { dev } = how;
  // Dev mode notes what the site's files() read, to call it again only when that changed.
  const { articles, data } = dev ? trackReads(inputs.articles, settings.data, dev.reads) : { articles: inputs.articles, data: settings.data };
  return generateFiles(
    inputs.server.module.site,
    { articles, data, baseUrl: settings.baseUrl, root: project.root, warn: how.warn },
    { cacheDir: project.cacheDir, salt: drawingCode(inputs.server), memo: dev?.memo, carries: how.carries, draw: how.draw },
  );
}

/**
 * The code that draws each file, for its cache key: its drawer's (or render's) module and what
 * that imports, so an edit elsewhere in the site draws nothing again; the whole site's code for a
 * function that cannot be told apart in the bundle.
 */
export function drawingCode(server: ServerBundle): (file: GeneratedFile) => string {
  // By the function's text: each file's render() is a closure of its own, all written in one place.
  const stamps = new Map<string, string>();
  const drawers = server.module.site.drawers ?? {};
  let whole: string | undefined;
  return (file) => {
    const fn = (file.draw ? drawers[file.draw.drawer] : file.render) as (...args: never[]) => unknown;
    const text = Function.prototype.toString.call(fn);
    let stamp = stamps.get(text);
    if (stamp === undefined) stamps.set(text, (stamp = codeStampOf(server, fn) ?? (whole ??= createHash('sha256').update(server.code).digest('hex'))));
    return stamp;
  };
}

/** Every folder above each path ('a' and 'a/b' for 'a/b/c.html'), with one path it holds. */
function foldersAbove(paths: Iterable<string>): Map<string, string> {
  const folders = new Map<string, string>();
  for (const file of paths) {
    for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) {
      const folder = file.slice(0, end);
      if (folders.has(folder)) break; // and so is every folder above it
      folders.set(folder, file);
    }
  }
  return folders;
}

/** The first folder above `file` that is one of `files`: a file cannot be written inside a file. */
function fileAbove(file: string, files: ReadonlySet<string>): string | undefined {
  for (let end = file.indexOf('/'); end > 0; end = file.indexOf('/', end + 1)) {
    if (files.has(file.slice(0, end))) return file.slice(0, end);
  }
  return undefined;
}

/**
 * A public file at the path of an asset, a page or another built file (`files`: drawn, images,
 * site files) is refused: one of the two would be lost. So is one where the build needs a folder,
 * or inside a folder the build writes as a file: writing the site would fail.
 */
export function checkPublicClashes(
  client: ClientBundle,
  jobs: readonly PageJob[],
  publicFiles: ReadonlySet<string>,
  publicDir: string,
  files: readonly OutputFile[] = [],
): void {
  if (publicFiles.size === 0) return;
  const built = [...client.assets.map((asset) => asset.path), ...jobs.map((job) => job.outputPath), ...files.map((file) => file.path)];
  const errors = built.filter((file) => publicFiles.has(file)).map((file) => publicFileClash(publicDir, ['samePath', file]));
  const builtFolders = foldersAbove(built);
  const builtFiles = new Set(built);
  // Looking above every public file costs its depth squared; only when a built file is a public folder.
  const publicFolders = foldersAbove(publicFiles);
  const anyInside = built.some((file) => publicFolders.has(file));
  for (const file of publicFiles) {
    const inside = builtFolders.get(file);
    const above = anyInside ? fileAbove(file, builtFiles) : undefined;
    if (inside === undefined && above === undefined) continue;
    errors.push(publicFileClash(publicDir, inside !== undefined ? ['whereAFolderIs', file, inside] : ['insideAFile', file, above!]));
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}

/**
 * Files the site places itself (`checked`, each with how a message names it) clashing with the
 * others or each other: at the path of a page, as a file or as the URL it is served at, or of
 * another built file; where another file needs a folder; inside a folder another file takes.
 */
function clashesOf(
  checked: ReadonlyArray<{ path: string; named: string }>,
  paths: { client: ClientBundle; jobs: readonly PageJob[]; generated: readonly OutputFile[] },
  project: Project,
): SsgError[] {
  const taken = new Map<string, string>();
  for (const file of [...paths.client.assets, ...paths.generated]) taken.set(file.path, `the built file ${file.path}`);
  for (const job of paths.jobs) {
    taken.set(job.outputPath, `${job.outputPath}, the page ${job.path}`);
    taken.set(job.path.slice(1), `the page ${job.path}`);
  }
  // On disk: the URLs pages are served at are no files, and a folder may share one's name.
  const others = new Set([...paths.client.assets, ...paths.generated].map((file) => file.path).concat(paths.jobs.map((job) => job.outputPath)));
  const folders = foldersAbove([...others, ...checked.map((item) => item.path)]);
  const file = siteEntryShown(project);
  const seen = new Map<string, string>();
  return checked.flatMap(({ path: at, named }) => {
    const other = taken.get(at) ?? seen.get(at)?.replace(/^The/, 'the');
    seen.set(at, named);
    if (other) return [catalogueError('GeneratedFileClash', ['samePath', named, other], { file })];
    const inside = folders.get(at);
    if (inside !== undefined) return [catalogueError('GeneratedFileClash', ['whereAFolderIs', named, inside], { file })];
    // Only against the other files: inside a checked file, that one is named (above).
    const above = fileAbove(at, others);
    return above ? [catalogueError('GeneratedFileClash', ['insideAFile', named, above], { file })] : [];
  });
}

/**
 * A drawn file (the site's files()) at the path of a page, as a file or as the URL it is served
 * at, or of an asset, an image or a site file is refused: written one after the other, one of the
 * two would silently be lost. So is one where another file needs a folder, or inside a folder
 * another file takes: writing the site would fail. `generated` is every other file the build makes.
 *
 * The `feed`, written where the site's feed() says, is held to the same rules (it replaced the
 * About page when given its path); it is among the site files in `generated`, once (twice when it
 * has the path of the sitemap, say). Both in one pass: a dev rebuild runs this every time.
 */
export function checkDrawnClashes(
  drawn: readonly OutputFile[],
  paths: { client: ClientBundle; jobs: readonly PageJob[]; generated: readonly OutputFile[] },
  project: Project,
  feed?: { path: string },
): void {
  const checked = drawn.map((item) => ({ path: item.path, named: `The generated file /${item.path}` }));
  let { generated } = paths;
  if (feed) {
    const at = feed.path.replace(/^\//, '');
    const itself = generated.findIndex((file) => file.path === at);
    generated = generated.filter((_, index) => index !== itself);
    checked.push({ path: at, named: `The feed ${feed.path}` });
  }
  if (checked.length === 0) return;
  const errors = clashesOf(checked, { ...paths, generated }, project);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}

/**
 * Every internal link of every page leads to a page, asset, generated or public file, and each
 * fragment to an id on its page; an error names the article the page was made from.
 */
export function checkSiteLinks(
  pages: ReadonlyArray<CheckedPage | PageLinks>,
  paths: { client: ClientBundle; jobs: readonly PageJob[]; generated: readonly OutputFile[]; publicFiles: ReadonlySet<string> },
  memo?: LinkCheckMemo,
  context?: LinkCheckContext,
): void {
  const files = new Set([
    ...paths.client.assets.map((asset) => asset.path),
    ...paths.jobs.map((job) => job.outputPath),
    ...paths.generated.map((file) => file.path),
    ...paths.publicFiles,
  ]);
  checkLinks(pages, files, undefined, memo, context);
}

/**
 * Where each article the run leaves out (a draft, a future post) would be published: beside the
 * published articles' own pages, each the page made from its file whose path ends in its slug
 * (`/news/<slug>`). A link to one is then told apart from a link to nothing.
 */
export function heldBackPages(
  articles: { byFile: ReadonlyMap<string, Article>; published: readonly Article[] },
  pages: ReadonlyArray<CheckedPage | PageLinks>,
): Map<string, HeldBackPage> {
  const published = new Set(articles.published.map((article) => article.file));
  const held = [...articles.byFile.values()].filter((article) => !published.has(article.file));
  const found = new Map<string, HeldBackPage>();
  if (held.length === 0) return found;
  const prefixes = new Set<string>();
  for (const page of pages) {
    const article = page.file === undefined ? undefined : articles.byFile.get(page.file);
    if (article && page.path.endsWith(`/${article.slug}`)) prefixes.add(page.path.slice(0, -article.slug.length));
  }
  for (const article of held) {
    for (const prefix of prefixes) found.set(`${prefix}${article.slug}`, { file: article.file, reason: article.draft ? 'draft' : 'future', date: article.date });
  }
  return found;
}

/** What a site's files are made of, for the checks that run once every file is known. */
export interface SiteOutputFiles {
  client: ClientBundle;
  jobs: readonly PageJob[];
  publicFiles: ReadonlySet<string>;
  /** The processed images the pages receive as data, and the images articles show. */
  images: readonly OutputFile[];
  /** What the site's files() drew (share cards), and the site files (sitemap, feed, robots, _headers). */
  drawn: readonly OutputFile[];
  generated: readonly OutputFile[];
}

/**
 * The checks of the finished site, in the one order `build` and dev mode both run them: no made
 * file where a public file is, no drawn file (or the feed) where another file is, then every link
 * of every page. The first that fails is reported.
 */
export function checkSiteOutput(
  project: Project,
  files: SiteOutputFiles,
  pages: ReadonlyArray<CheckedPage | PageLinks>,
  options: { feed?: { path: string }; memo?: LinkCheckMemo; links?: LinkCheckContext } = {},
): void {
  const { client, jobs, publicFiles, images, drawn, generated } = files;
  checkPublicClashes(client, [], publicFiles, project.publicDir, [...drawn, ...images, ...generated]);
  checkDrawnClashes(drawn, { client, jobs, generated: [...images, ...generated] }, project, options.feed);
  checkSiteLinks(pages, { client, jobs, generated: [...images, ...drawn, ...generated], publicFiles }, options.memo, options.links);
}

/**
 * Waits for all of `work`, then reports the first failure in the order given, not the first to
 * happen: build and dev mode report one problem the same way whatever finished first.
 */
export async function inOrder<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
