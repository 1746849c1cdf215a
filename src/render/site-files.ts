// The files beside the pages that search engines, feed readers and phones read.
import type { Article } from '../content/article.ts';
import { catalogueError } from '../errors/errors.ts';
import type { OutputFile } from '../output/output-file.ts';
import { nginxRedirects, redirectPage, redirectsFile, type Redirect } from './redirects.ts';
import { alternateLinks } from './i18n.ts';
import { outputPathFor, type PageJob } from './routes.ts';
import type { FeedDefinition, SiteMeta } from './site-definition.ts';
import { atomFeed, feedPaths, jsonFeed, rssFeed } from './feeds.ts';
import { escapeXml } from './xml-text.ts';

const SAFE_PATH = /^(?:[A-Za-z0-9][A-Za-z0-9._~-]*\/)*[A-Za-z0-9][A-Za-z0-9._~-]*\.[A-Za-z0-9]+$/;

/** A path the site may write a file of its own at: `/news/feed.xml`, never `../x` or `/x/` or `/x`. */
export function isSiteFilePath(file: string): boolean {
  const where = file.replace(/^\//, '');
  return file.startsWith('/') && SAFE_PATH.test(where) && !where.split('/').includes('..');
}

/** A header some paths get in place of the site's header of that name (the search's policy, for its pages). */
export interface PathHeader {
  paths: string[];
  /** The header's name as the site wrote it. */
  name: string;
  value: string;
}

/** An ISO date (`2025-01-01`) of an article's date, when it has a readable one. */
function isoDay(date: string): string | undefined {
  const time = Date.parse(date);
  if (Number.isNaN(time)) return undefined;
  // The day the author wrote (a time keeps its own zone: 23:30 -05:00 is that day, not the next).
  return /^\d{4}-\d{2}-\d{2}(?=T|$)/.exec(date)?.[0] ?? new Date(time).toISOString().slice(0, 10);
}

/** The article a page was handed through its route entry, if any. */
function entryArticle(job: PageJob, articles: ReadonlySet<Article>): Article | undefined {
  return Object.values(job.entry).find((value): value is Article => articles.has(value as Article));
}

/**
 * Every indexable page (not a 404 or a `noindex` route, not a draft shown by --drafts, not an article whose canonical
 * URL is elsewhere), articles with the day they were last changed (`updated`, else their date).
 */
function sitemap(jobs: readonly PageJob[], articles: readonly Article[], baseUrl: string): string {
  const known = new Set(articles);
  const urls = jobs
    .filter((job) => {
      const article = entryArticle(job, known);
      const elsewhere = article?.canonical !== undefined && article.canonical !== baseUrl + job.path;
      return !job.noindex && !article?.draft && !elsewhere && job.fallbackFor === undefined;
    })
    .map((job) => {
      const article = entryArticle(job, known);
      const updated = article && isoDay(article.updated ?? article.date);
      // Each translation of the page, and x-default: Google's `xhtml:link` alternates.
      const alternates = alternateLinks(job.hreflang, baseUrl)
        .map(
          (link) =>
            `<xhtml:link rel="alternate" hreflang="${escapeXml(link.hreflang)}" href="${escapeXml(link.href)}"/>`,
        )
        .join('');
      return `  <url><loc>${escapeXml(baseUrl + job.path)}</loc>${updated ? `<lastmod>${updated}</lastmod>` : ''}${alternates}</url>`;
    });
  const xhtml = jobs.some((job) => job.hreflang?.length) ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join('\n')}\n</urlset>\n`;
}

function robots(baseUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}

function webManifest(meta: SiteMeta): string {
  return `${JSON.stringify(
    {
      name: meta.name,
      short_name: meta.shortName ?? meta.name,
      description: meta.description,
      lang: meta.language,
      start_url: '/',
      display: 'browser',
      theme_color: meta.themeColor,
      background_color: meta.backgroundColor,
      icons: meta.icon
        ? [{ src: meta.icon, sizes: 'any', type: meta.icon.endsWith('.svg') ? 'image/svg+xml' : 'image/png' }]
        : [],
    },
    null,
    2,
  )}\n`;
}

/** Headers of their own for one folder of the site (the editor's), in place of the site's. */
export interface FolderHeaders {
  /** `/admin`: the folder and everything below it. */
  path: string;
  headers: Record<string, string>;
}

/**
 * `_headers` (Netlify, Cloudflare Pages): the site's headers on every path, long caching for hashed
 * assets, then a feature's header on its paths (the search's policy) and each folder's own headers, which first detach (`! Name`) those
 * of the site they replace: Cloudflare would otherwise send both policies, and a browser enforces each.
 */
export function headersFile(
  headers: Record<string, string> | undefined,
  folders: readonly FolderHeaders[] = [],
  pathHeader?: PathHeader,
): string {
  const lines = ['/*'];
  for (const [name, value] of Object.entries(headers ?? {})) lines.push(`  ${name}: ${value}`);
  lines.push('/assets/*', '  Cache-Control: public, max-age=31536000, immutable');
  // Its paths (the pages that search): the site's header detached, this one in its place (Netlify: the later wins).
  for (const urlPath of pathHeader?.paths ?? [])
    lines.push(urlPath, `  ! ${pathHeader!.name}`, `  ${pathHeader!.name}: ${pathHeader!.value}`);
  // Only what differs from the site's: the rest applies through `/*` already.
  const site = new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  for (const folder of folders) {
    const changed = Object.entries(folder.headers).filter(([name, value]) => site.get(name.toLowerCase()) !== value);
    for (const pattern of [folder.path, `${folder.path}/*`]) {
      lines.push(pattern);
      for (const [name] of changed) if (site.has(name.toLowerCase())) lines.push(`  ! ${name}`);
      for (const [name, value] of changed) lines.push(`  ${name}: ${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The file of `nginxHeadersFile`, hidden like `_headers` by every server that reads the site. */
export const NGINX_HEADERS_FILE = '_headers.nginx.conf';

const HEADER_NAME = /^[A-Za-z0-9-]+$/;
// nginx reads `$name` in an add_header value as a variable, and has no escape for it.
const NGINX_UNSAFE_VALUE = /[\u0000-\u001f\u007f$]/;

/**
 * The site's headers for every path as nginx `add_header … always;` lines, for the nginx guide's
 * server block to `include`: the one source of the Content-Security-Policy, whose style hash
 * changes with every style sheet. `always`: on error pages too.
 */
export function nginxHeadersFile(
  headers: Record<string, string> | undefined,
  redirects: readonly Redirect[] = [],
  folders: readonly FolderHeaders[] = [],
  pathHeader?: PathHeader,
): string {
  const lines = [
    '# Written by the build, with _headers: the headers of every response. Included by the nginx',
    '# server block; reload nginx after a deploy that changes it.',
    ...addHeaderLines(headers, '', pathHeader),
  ];
  // The site's redirects: exact locations, answered before any file.
  lines.push(...nginxRedirects(redirects));
  for (const folder of folders) {
    // A location's add_header replaces all the server's: the folder's block lists every header it sends.
    lines.push(
      `location = ${folder.path} { return 301 ${folder.path}/; }`,
      `location ^~ ${folder.path}/ {`,
      ...addHeaderLines(folder.headers, '  '),
      '  try_files ${uri}index.html $uri =404;',
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The headers as `add_header` lines; `pathHeader` (the search's policy), at server level, in place of the site's on its paths. */
function addHeaderLines(
  headers: Record<string, string> | undefined,
  indent: string,
  pathHeader?: PathHeader,
): string[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => {
    if (!HEADER_NAME.test(name) || NGINX_UNSAFE_VALUE.test(value)) {
      throw catalogueError('HeaderInvalid', [name, value], { file: 'site/index.tsx' });
    }
    if (pathHeader?.name === name) return nginxPathHeader(pathHeader, value);
    return [`${indent}add_header ${name} "${nginxQuoted(value)}" always;`];
  });
}

const nginxQuoted = (value: string) => value.replace(/[\\"]/g, '\\$&');

/** A path of `_headers` (`/news`, `/pagefind/*`) as an anchored nginx regular expression. */
const nginxPathPattern = (urlPath: string) =>
  urlPath.endsWith('/*')
    ? `^${urlPath.slice(0, -1).replace(/[.+?^${}()|[\]\\]/g, '\\$&')}`
    : `^${urlPath.replace(/[.+?^${}()|[\]\\]/g, '\\$&')}(\\.html)?$`;

/**
 * The header for nginx when some paths get their own (the pages that search, their policy): a
 * variable set at server level (an `add_header` inside a location would drop every other header
 * there), the paths' own value on them.
 */
function nginxPathHeader(pathHeader: PathHeader, value: string): string[] {
  const pattern = pathHeader.paths.map(nginxPathPattern).join('|');
  return [
    `set $ssg_csp "${nginxQuoted(value)}";`,
    `if ($uri ~ "${pattern}") { set $ssg_csp "${nginxQuoted(pathHeader.value)}"; }`,
    `add_header ${pathHeader.name} $ssg_csp always;`,
  ];
}

export interface SiteFilesInput {
  jobs: readonly PageJob[];
  articles: readonly Article[];
  baseUrl: string;
  now: Date;
  meta?: SiteMeta;
  feeds?: readonly FeedDefinition[];
  headers?: Record<string, string>;
  /** A header in place of the site's on some paths (the search's Content-Security-Policy, for the pages that search). */
  pathHeader?: PathHeader;
  /** Files the site ships itself (site/public) take precedence over generated ones. */
  publicFiles: ReadonlySet<string>;
  /** The site's checked redirects. */
  redirects?: readonly Redirect[];
  /** Folders with headers of their own (the editor's). */
  folderHeaders?: readonly FolderHeaders[];
}

export function siteFiles(input: SiteFilesInput): OutputFile[] {
  // No _redirects: Cloudflare Pages rejects the 404-status rules Netlify needs for the nested
  // not-found pages, so those live in the project's netlify.toml (see docs/deploy-netlify.md).
  const files: OutputFile[] = [
    { path: 'sitemap.xml', contents: sitemap(input.jobs, input.articles, input.baseUrl) },
    { path: 'robots.txt', contents: robots(input.baseUrl) },
    { path: '_headers', contents: headersFile(input.headers, input.folderHeaders, input.pathHeader) },
    {
      path: NGINX_HEADERS_FILE,
      contents: nginxHeadersFile(input.headers, input.redirects, input.folderHeaders, input.pathHeader),
    },
    ...redirectFiles(input.redirects ?? [], input.baseUrl),
  ];
  if (input.meta) files.push({ path: 'manifest.webmanifest', contents: webManifest(input.meta) });
  for (const feed of input.feeds ?? []) files.push(...feedFiles(feed, input));
  return files.filter((file) => !input.publicFiles.has(file.path));
}

/** `_redirects` for the hosts that read it, and a page at each source for those that read none. */
function redirectFiles(redirects: readonly Redirect[], baseUrl: string): OutputFile[] {
  if (redirects.length === 0) return [];
  return [
    { path: '_redirects', contents: redirectsFile(redirects) },
    ...redirects.map((redirect) => ({
      path: outputPathFor(redirect.from),
      contents: redirectPage(redirect, baseUrl),
      redirectsTo: redirect.to,
    })),
  ];
}

/** The feed in each format readers ask for: RSS at the site's path, Atom and JSON Feed beside it. */
function feedFiles(feed: FeedDefinition, input: SiteFilesInput): OutputFile[] {
  const paths = feedPaths(feed.path);
  const at = (urlPath: string) => urlPath.replace(/^\//, '');
  const files = [
    { path: at(paths.rss), contents: rssFeed(feed, input.meta, input.articles, input.baseUrl, input.now) },
  ];
  if (paths.atom)
    files.push({
      path: at(paths.atom),
      contents: atomFeed(feed, input.meta, input.articles, input.baseUrl, input.now),
    });
  if (paths.json)
    files.push({
      path: at(paths.json),
      contents: jsonFeed(feed, input.meta, input.articles, input.baseUrl, input.now),
    });
  return files;
}
