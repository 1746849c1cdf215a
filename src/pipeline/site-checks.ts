// The checks of the finished site that `build` and dev mode both run, in one order: no two files
// at one path, no file where a folder must be, every internal link leading somewhere.
import type { Article } from '../content/article.ts';
import type { ClientBundle } from '../render/bundles.ts';
import { catalogueError, SsgError, SsgErrorList } from '../errors/errors.ts';
import {
  checkLinks,
  type CheckedPage,
  type HeldBackPage,
  type LinkCheckContext,
  type LinkCheckMemo,
  type PageLinks,
} from '../render/links.ts';
import { publicFileClash } from '../output/output.ts';
import { type OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import type { PageJob } from '../render/routes.ts';
import { siteEntryShown } from './site-settings.ts';

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
  const built = [
    ...client.assets.map((asset) => asset.path),
    ...jobs.map((job) => job.outputPath),
    ...files.map((file) => file.path),
  ];
  const errors = built
    .filter((file) => publicFiles.has(file))
    .map((file) => publicFileClash(publicDir, ['samePath', file]));
  const builtFolders = foldersAbove(built);
  const builtFiles = new Set(built);
  // Looking above every public file costs its depth squared; only when a built file is a public folder.
  const publicFolders = foldersAbove(publicFiles);
  const anyInside = built.some((file) => publicFolders.has(file));
  for (const file of publicFiles) {
    const inside = builtFolders.get(file);
    const above = anyInside ? fileAbove(file, builtFiles) : undefined;
    if (inside === undefined && above === undefined) continue;
    errors.push(
      publicFileClash(
        publicDir,
        inside !== undefined ? ['whereAFolderIs', file, inside] : ['insideAFile', file, above!],
      ),
    );
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
  const others = new Set(
    [...paths.client.assets, ...paths.generated]
      .map((file) => file.path)
      .concat(paths.jobs.map((job) => job.outputPath)),
  );
  const folders = foldersAbove([...others, ...checked.map((item) => item.path)]);
  const file = siteEntryShown(project);
  const seen = new Map<string, string>();
  return checked.flatMap(({ path: at, named }) => {
    const other = taken.get(at) ?? seen.get(at)?.replace(/^The/, 'the');
    seen.set(at, named);
    if (other) return [catalogueError('GeneratedFileClash', ['samePath', named, other], { file })];
    const inside = folders.get(at);
    if (inside !== undefined)
      return [catalogueError('GeneratedFileClash', ['whereAFolderIs', named, inside], { file })];
    // Only against the other files: inside a checked file, that one is named (above).
    const above = fileAbove(at, others);
    return above ? [catalogueError('GeneratedFileClash', ['insideAFile', named, above], { file })] : [];
  });
}

/**
 * Refuses a drawn file (the site's files()) at the path or URL of a page, asset, image or site
 * file, where one of the two would be silently lost, and one that needs a folder another file
 * takes (writing would fail). `generated` is every other file, the feed among them. One pass,
 * since dev runs it on every rebuild.
 */
export function checkDrawnClashes(
  drawn: readonly OutputFile[],
  paths: { client: ClientBundle; jobs: readonly PageJob[]; generated: readonly OutputFile[] },
  project: Project,
  feeds: readonly { path: string }[] = [],
): void {
  const checked = drawn.map((item) => ({ path: item.path, named: `The generated file /${item.path}` }));
  let { generated } = paths;
  for (const feed of feeds) {
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
function checkSiteLinks(
  pages: ReadonlyArray<CheckedPage | PageLinks>,
  paths: {
    client: ClientBundle;
    jobs: readonly PageJob[];
    generated: readonly OutputFile[];
    publicFiles: ReadonlySet<string>;
  },
  memo?: LinkCheckMemo,
  context?: LinkCheckContext,
): void {
  const files = new Set([
    ...paths.client.assets.map((asset) => asset.path),
    ...paths.jobs.map((job) => job.outputPath),
    ...paths.generated.map((file) => file.path),
    ...paths.publicFiles,
  ]);
  const redirects = new Map(
    paths.generated
      .filter((file) => file.redirectsTo !== undefined)
      .map((file) => [`/${file.path.replace(/\.html$/, '')}`, file.redirectsTo!]),
  );
  checkLinks(pages, files, undefined, memo, redirects.size > 0 ? { ...context, redirects } : context);
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
  // Each collection's own: its articles' pages, `/news/` of the news and `/docs/` of the docs.
  const prefixes = new Map<string, Set<string>>();
  for (const page of pages) {
    const article = page.file === undefined ? undefined : articles.byFile.get(page.file);
    if (article && page.path.endsWith(`/${article.slug}`)) {
      const own = prefixes.get(article.collection) ?? new Set<string>();
      prefixes.set(article.collection, own.add(page.path.slice(0, -article.slug.length)));
    }
  }
  for (const article of held) {
    for (const prefix of prefixes.get(article.collection) ?? [])
      found.set(`${prefix}${article.slug}`, {
        file: article.file,
        reason: article.draft ? 'draft' : 'future',
        date: article.date,
      });
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
  options: { feeds?: readonly { path: string }[]; memo?: LinkCheckMemo; links?: LinkCheckContext } = {},
): void {
  const { client, jobs, publicFiles, images, drawn, generated } = files;
  checkPublicClashes(client, [], publicFiles, project.publicDir, [...drawn, ...images, ...generated]);
  checkDrawnClashes(drawn, { client, jobs, generated: [...images, ...generated] }, project, options.feeds);
  checkSiteLinks(
    pages,
    { client, jobs, generated: [...images, ...drawn, ...generated], publicFiles },
    options.memo,
    options.links,
  );
}
