// The site's feed in the three formats readers ask for: RSS 2.0, Atom 1.0 and JSON Feed 1.1, each
// carrying the same newest articles. Atom and JSON Feed are written by the `feed` package.
import { Feed } from 'feed';
import type { Article } from '../content/article.ts';
import type { FeedDefinition, SiteMeta } from './site-definition.ts';
import { escapeXml, NOT_XML } from './xml-text.ts';

/** `href`/`src` attributes as the Markdown stage writes them: double-quoted, entities escaped. */
const URL_ATTRIBUTE = /(\s(?:href|src)=")([^"]*)(")/gi;
const HTML_ENTITY_DECODE: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
const decodeAttribute = (value: string) =>
  value.replace(/&(?:amp|quot|lt|gt|#x27|#39);/g, (entity) => HTML_ENTITY_DECODE[entity]!);
const encodeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An island the Markdown stage wrote into an article (a code block's copy button), with what it holds. */
const ISLAND_IN_ARTICLE =
  /<ssg-island data-island="[^"<>]*" data-hydrate="[a-z]+" data-props="[^"<>]*">[\s\S]*?<\/ssg-island>/g;

/** The article's HTML without its islands: a feed reader runs no script, so their buttons would do nothing. */
const withoutIslands = (html: string) => html.replace(ISLAND_IN_ARTICLE, '');

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

/**
 * RSS 2.0 of the newest articles (drafts never), newest first, with their full text. Ours, not
 * the `feed` package's: it puts a title, plain text in RSS, in CDATA and splits only its first
 * `]]>`, so the title `a ]]> b ]]><evil/>` gives an `<evil/>` element.
 */
export function rssFeed(
  feed: FeedDefinition,
  meta: SiteMeta | undefined,
  allArticles: readonly Article[],
  baseUrl: string,
  now: Date,
): string {
  const articles = feedSource(feed, allArticles);
  const items = feedArticles(feed, articles).map((article) => {
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
      `      <content:encoded><![CDATA[${readerHtml(article, link).replaceAll(']]>', ']]]]><![CDATA[>')}]]></content:encoded>`,
      '    </item>',
    ]
      .filter(Boolean)
      .join('\n');
  });
  const updated = feedUpdated(articles, now);
  return (
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
      '  <channel>',
      `    <title>${escapeXml(feed.title)}</title>`,
      `    <link>${escapeXml(baseUrl + (feed.home ?? '/'))}</link>`,
      `    <description>${escapeXml(feed.description)}</description>`,
      (feed.locale ?? meta?.language) ? `    <language>${escapeXml((feed.locale ?? meta?.language)!)}</language>` : '',
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
      .replace(NOT_XML, '')
  );
}

/** Where each format is written: RSS at the site's path, `atom.xml` and `feed.json` in its folder. */
export function feedPaths(rssPath: string): { rss: string; atom?: string; json?: string } {
  const folder = rssPath.slice(0, rssPath.lastIndexOf('/') + 1);
  const beside = (name: string) => (folder + name === rssPath ? undefined : folder + name);
  return { rss: rssPath, atom: beside('atom.xml'), json: beside('feed.json') };
}

/** The articles a feed may carry: those of its collection (of every one without), drafts never. */
function feedSource(feed: FeedDefinition, published: readonly Article[]): readonly Article[] {
  return published.filter(
    (article) =>
      !article.draft &&
      (feed.collection === undefined || article.collection === feed.collection) &&
      (feed.locale === undefined || article.locale === feed.locale),
  );
}

/** The articles a feed carries: the newest it may carry, as many as its limit. */
export function feedArticles(feed: FeedDefinition, published: readonly Article[]): readonly Article[] {
  return feedSource(feed, published).slice(0, feed.limit ?? FEED_LIMIT);
}

/**
 * When the feed last changed: its newest article's date; without articles the build's day (UTC),
 * as pages show it: the same site all day, as a build that repeats the last one leaves it.
 */
function feedUpdated(published: readonly Article[], now: Date): Date {
  const newest = published.map((article) => Date.parse(article.date)).filter((time) => !Number.isNaN(time));
  return new Date(
    newest.length ? Math.max(...newest) : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
  );
}

function dateOf(text: string | undefined): Date | undefined {
  const time = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** The article's full text for a reader: no islands, every URL absolute. */
const readerHtml = (article: Article, link: string) => absolutizeUrls(withoutIslands(article.html), link);

/**
 * HTML for one of the `feed` package's CDATA sections: it splits only the first `]]>` of a section,
 * so a second would end it early; `]]&gt;` reads as the same HTML. What XML cannot hold goes
 * first: removed after, it could join a `]]>` (`]]\0>`).
 */
const cdataHtml = (html: string) => html.replace(NOT_XML, '').replaceAll(']]>', ']]&gt;');

/** Text for one of its text nodes, which read `&amp;` as escaped already: a literal `&amp;` stays one. */
const nodeText = (text: string) => text.replaceAll('&amp;', '&amp;amp;');

/** Atom 1.0 of the newest articles (drafts never), newest first, with their full text. */
export function atomFeed(
  feed: FeedDefinition,
  meta: SiteMeta | undefined,
  allArticles: readonly Article[],
  baseUrl: string,
  now: Date,
): string {
  const published = feedSource(feed, allArticles);
  const updated = feedUpdated(published, now);
  const atom = new Feed({
    id: `${baseUrl}/`,
    link: baseUrl + (feed.home ?? '/'),
    title: nodeText(feed.title),
    description: nodeText(feed.description),
    updated,
    generator: false,
    feedLinks: { atom: baseUrl + feedPaths(feed.path).atom },
    // Atom asks for the feed's author when its entries name none.
    author: { name: nodeText(meta?.name ?? feed.title), link: `${baseUrl}/` },
  });
  for (const article of feedArticles(feed, published)) {
    const link = baseUrl + feed.link(article);
    atom.addItem({
      // The package marks an entry's title as HTML: the title's text, escaped.
      title: escapeXml(article.title),
      id: link,
      link,
      date: dateOf(article.updated ?? article.date) ?? updated,
      published: dateOf(article.date),
      description: article.excerptHtml ? cdataHtml(article.excerptHtml) : undefined,
      content: cdataHtml(readerHtml(article, link)),
      // Its attributes escape quotes only: a `<` would make the feed no XML.
      category: (article.tags ?? []).map((tag) => ({ term: tag.replaceAll('<', '') })),
    });
  }
  return `${atom.atom1().replace(NOT_XML, '')}\n`;
}

/** JSON Feed 1.1 of the newest articles (drafts never), newest first, with their full text. */
export function jsonFeed(
  feed: FeedDefinition,
  meta: SiteMeta | undefined,
  allArticles: readonly Article[],
  baseUrl: string,
  now: Date,
): string {
  const published = feedSource(feed, allArticles);
  const json = new Feed({
    title: feed.title,
    description: feed.description,
    link: baseUrl + (feed.home ?? '/'),
    updated: feedUpdated(published, now),
    feedLinks: { json: baseUrl + feedPaths(feed.path).json },
  });
  for (const article of feedArticles(feed, published)) {
    const link = baseUrl + feed.link(article);
    json.addItem({
      title: article.title,
      id: link,
      link,
      date: dateOf(article.updated ?? article.date) ?? feedUpdated(published, now),
      published: dateOf(article.date),
      // JSON Feed's summary is plain text.
      description: article.excerpt || undefined,
      content: readerHtml(article, link),
      category: (article.tags ?? []).map((tag) => ({ name: tag })),
    });
  }
  // The package writes version 1; 1.1 adds the language and asks nothing more of these fields.
  const written = JSON.parse(json.json1()) as Record<string, unknown>;
  return `${JSON.stringify({ ...written, version: 'https://jsonfeed.org/version/1.1', language: feed.locale ?? meta?.language }, null, 2)}\n`;
}
