// The files beside the pages that search engines, feed readers and phones read.
import type { Article } from '../content/article.ts';
import { catalogueError } from '../errors.ts';
import type { OutputFile } from '../output/output.ts';
import type { PageJob } from './routes.ts';
import type { FeedDefinition, SiteMeta } from './site-definition.ts';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Characters XML 1.0 cannot hold: C0 controls but tab and line breaks, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

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
export function sitemap(jobs: readonly PageJob[], articles: readonly Article[], baseUrl: string): string {
  const known = new Set(articles);
  const urls = jobs
    .filter((job) => {
      const article = entryArticle(job, known);
      const elsewhere = article?.canonical !== undefined && article.canonical !== baseUrl + job.path;
      return !job.noindex && !article?.draft && !elsewhere;
    })
    .map((job) => {
      const article = entryArticle(job, known);
      const updated = article && isoDay(article.updated ?? article.date);
      return `  <url><loc>${escapeXml(baseUrl + job.path)}</loc>${updated ? `<lastmod>${updated}</lastmod>` : ''}</url>`;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robots(baseUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}

/** `href`/`src` attributes as the Markdown stage writes them: double-quoted, entities escaped. */
const URL_ATTRIBUTE = /(\s(?:href|src)=")([^"]*)(")/gi;
const HTML_ENTITY_DECODE: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const decodeAttribute = (value: string) => value.replace(/&(?:amp|quot|lt|gt|#x27|#39);/g, (entity) => HTML_ENTITY_DECODE[entity]!);
const encodeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An island the Markdown stage wrote into an article (a code block's copy button), with what it holds. */
const ISLAND_IN_ARTICLE = /<ssg-island data-island="[^"<>]*" data-hydrate="[a-z]+" data-props="[^"<>]*">[\s\S]*?<\/ssg-island>/g;

/** The article's HTML without its islands: a feed reader runs no script, so their buttons would do nothing. */
export const withoutIslands = (html: string) => html.replace(ISLAND_IN_ARTICLE, '');

/**
 * The article's HTML with every link and image absolute, resolved against the article's URL:
 * feed readers show it away from the site, where `/news/a` or `../logo.svg` lead nowhere.
 * A fragment (`#top`) gets the article's URL before it; absolute URLs (`mailto:` too), empty values
 * and values no URL parser accepts stay as written.
 */
export function absolutizeUrls(html: string, pageUrl: string): string {
  return html.replace(URL_ATTRIBUTE, (whole, before: string, value: string, after: string) => {
    const raw = decodeAttribute(value).trim();
    if (raw === '' || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return whole;
    try {
      return `${before}${encodeAttribute(new URL(raw, pageUrl).href)}${after}`;
    } catch {
      return whole;
    }
  });
}

const rfc822 = (date: Date) => date.toUTCString().replace('GMT', '+0000');

export const FEED_LIMIT = 50;

/** RSS 2.0 of the newest articles (drafts never), newest first, with their full text. */
export function rssFeed(feed: FeedDefinition, meta: SiteMeta | undefined, allArticles: readonly Article[], baseUrl: string, now: Date): string {
  const articles = allArticles.filter((article) => !article.draft);
  const items = articles.slice(0, feed.limit ?? FEED_LIMIT).map((article) => {
    const link = baseUrl + feed.link(article);
    const time = Date.parse(article.date);
    return [
      '    <item>',
      `      <title>${escapeXml(article.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      Number.isNaN(time) ? '' : `      <pubDate>${rfc822(new Date(time))}</pubDate>`,
      // RSS's description is HTML, escaped: the excerpt's emphasis and code as the list shows them.
      article.excerptHtml ? `      <description>${escapeXml(article.excerptHtml)}</description>` : '',
      ...(article.tags ?? []).map((tag) => `      <category>${escapeXml(tag)}</category>`),
      `      <content:encoded><![CDATA[${absolutizeUrls(withoutIslands(article.html), link).replaceAll(']]>', ']]]]><![CDATA[>')}]]></content:encoded>`,
      '    </item>',
    ]
      .filter(Boolean)
      .join('\n');
  });
  const newest = articles.map((article) => Date.parse(article.date)).filter((time) => !Number.isNaN(time));
  // Without articles, the build's day (UTC), as pages show it: the same site all day, as a build
  // that repeats the last one (nothing changed) leaves it.
  const updated = new Date(newest.length ? Math.max(...newest) : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '  <channel>',
    `    <title>${escapeXml(feed.title)}</title>`,
    `    <link>${escapeXml(baseUrl + '/')}</link>`,
    `    <description>${escapeXml(feed.description)}</description>`,
    meta ? `    <language>${escapeXml(meta.language)}</language>` : '',
    `    <lastBuildDate>${rfc822(updated)}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(baseUrl + feed.path)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    // XML 1.0 may not hold control characters (a title or body can: YAML's "\b", a pasted byte):
    // a feed holding one is no XML at all to a reader, so they go; a page never shows them anyway.
    .replace(NOT_XML, '');
}

export function webManifest(meta: SiteMeta): string {
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
      icons: meta.icon ? [{ src: meta.icon, sizes: 'any', type: meta.icon.endsWith('.svg') ? 'image/svg+xml' : 'image/png' }] : [],
    },
    null,
    2,
  )}\n`;
}

/** `_headers` (Netlify, Cloudflare Pages): the site's headers on every path, long caching for hashed assets. */
export function headersFile(headers: Record<string, string> | undefined): string {
  const lines = ['/*'];
  for (const [name, value] of Object.entries(headers ?? {})) lines.push(`  ${name}: ${value}`);
  lines.push('/assets/*', '  Cache-Control: public, max-age=31536000, immutable');
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
export function nginxHeadersFile(headers: Record<string, string> | undefined): string {
  const lines = [
    '# Written by the build, with _headers: the headers of every response. Included by the nginx',
    '# server block; reload nginx after a deploy that changes it.',
  ];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(name) || NGINX_UNSAFE_VALUE.test(value)) {
      throw catalogueError('HeaderInvalid', [name, value], { file: 'site/index.tsx' });
    }
    lines.push(`add_header ${name} "${value.replace(/[\\"]/g, '\\$&')}" always;`);
  }
  return `${lines.join('\n')}\n`;
}

export interface SiteFilesInput {
  jobs: readonly PageJob[];
  articles: readonly Article[];
  baseUrl: string;
  now: Date;
  meta?: SiteMeta;
  feed?: FeedDefinition;
  headers?: Record<string, string>;
  /** Files the site ships itself (site/public) take precedence over generated ones. */
  publicFiles: ReadonlySet<string>;
}

export function siteFiles(input: SiteFilesInput): OutputFile[] {
  // No _redirects: Cloudflare Pages rejects the 404-status rules Netlify needs for the nested
  // not-found pages, so those live in the project's netlify.toml (see docs/deploy-netlify.md).
  const files: OutputFile[] = [
    { path: 'sitemap.xml', contents: sitemap(input.jobs, input.articles, input.baseUrl) },
    { path: 'robots.txt', contents: robots(input.baseUrl) },
    { path: '_headers', contents: headersFile(input.headers) },
    { path: NGINX_HEADERS_FILE, contents: nginxHeadersFile(input.headers) },
  ];
  if (input.meta) files.push({ path: 'manifest.webmanifest', contents: webManifest(input.meta) });
  if (input.feed) files.push({ path: input.feed.path.replace(/^\//, ''), contents: rssFeed(input.feed, input.meta, input.articles, input.baseUrl, input.now) });
  return files.filter((file) => !input.publicFiles.has(file.path));
}
