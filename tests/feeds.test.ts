// Atom and JSON Feed beside RSS: the same articles, well-formed whatever the titles and summaries
// hold, linked from every page.
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { atomFeed, feedPaths, jsonFeed, rssFeed } from '../src/render/feeds.ts';
import { renderHead } from '../src/render/head.ts';
import type { FeedDefinition } from '../src/render/site-definition.ts';
import { NOT_XML } from '../src/render/xml-text.ts';

const BASE = 'https://site.example';
const FEED: FeedDefinition = {
  path: '/news/feed.xml',
  title: 'News',
  description: 'Updates',
  link: (article) => `/news/${article.slug}`,
};
const META = { name: 'Site', language: 'en' } as never;

const article = (fields: Partial<Article> & { slug: string }): Article =>
  ({
    title: fields.slug,
    date: '2025-01-01',
    excerpt: '',
    excerptHtml: '',
    markdown: '',
    html: '<p>Body</p>',
    data: {},
    draft: false,
    file: `content/news/${fields.slug}.md`,
    ...fields,
  }) as Article;

/** Text that has broken feeds: markup, entities, CDATA ends, quotes, control characters, lone surrogates. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '<',
      '>',
      '&',
      ']]>',
      ']]',
      '&amp;',
      '&lt;',
      '<![CDATA[',
      '"',
      "'",
      '<script>',
      '</title>',
      '\u0000',
      '\u0001',
      '\u000b',
      '\uFFFE',
      '\uD800',
      '\uDC00',
      '😀',
      'é',
      ' ',
    ),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: false });
const htmlText = (html: string) =>
  html.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
  );
const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
/** What an XML reader gets of a text: no character XML cannot hold, line ends as XML reads them. */
const readable = (text: string) => text.replace(NOT_XML, '').replace(/\r\n?/g, '\n');

describe('the Atom and JSON feeds', () => {
  it('are written beside the RSS file, as atom.xml and feed.json', () => {
    expect(feedPaths('/news/feed.xml')).toEqual({
      rss: '/news/feed.xml',
      atom: '/news/atom.xml',
      json: '/news/feed.json',
    });
    expect(feedPaths('/rss.xml')).toEqual({ rss: '/rss.xml', atom: '/atom.xml', json: '/feed.json' });
    expect(feedPaths('/feed.json').json).toBeUndefined();
  });

  it('keep hostile titles, summaries and tags as text and stay well formed (fast-check)', () => {
    fc.assert(
      // A title and a tag are never empty (the front matter's schema); a summary may be.
      fc.property(hostile.filter(Boolean), hostile, hostile.filter(Boolean), (title, summary, tag) => {
        const articles = [
          article({
            slug: 'a',
            title,
            excerpt: summary,
            excerptHtml: summary.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`),
            tags: [tag],
            html: `<p>${summary}</p>`,
          }),
        ];
        const atom = atomFeed({ ...FEED, title: summary }, META, articles, BASE, new Date(0));
        expect(XMLValidator.validate(atom)).toBe(true);
        const parsed = xml.parse(atom).feed;
        expect(parsed.title).toBe(readable(summary));
        const entry = parsed.entry;
        // Atom's entry title is marked as HTML: escaped once, it reads as the title's text.
        expect(htmlText(entry.title)).toBe(readable(title));

        const json = JSON.parse(jsonFeed({ ...FEED, title: summary }, META, articles, BASE, new Date(0)));
        expect(json.version).toBe('https://jsonfeed.org/version/1.1');
        expect(json.title).toBe(summary);
        expect(json.items[0]).toMatchObject({ id: `${BASE}/news/a`, url: `${BASE}/news/a`, title, tags: [tag] });
        if (summary) expect(json.items[0].summary).toBe(summary);
      }),
      // A control character inside a CDATA end (`]]\0>`): removed after the split, it made one.
      { numRuns: 300, examples: [['<', ']]\u0000>', '<']] },
    );
  });

  it('a body holding several CDATA ends stays one piece of content', () => {
    const body = '<p>a ]]> b ]]><evil/> c</p>';
    const atom = atomFeed(FEED, META, [article({ slug: 'a', html: body })], BASE, new Date(0));
    expect(XMLValidator.validate(atom)).toBe(true);
    const entry = xml.parse(atom).feed.entry;
    expect(entry.content).toBe('<p>a ]]&gt; b ]]&gt;<evil/> c</p>');
    expect(entry).not.toHaveProperty('evil');
  });

  it('carry the same articles as RSS, newest first, drafts never, at most the limit', () => {
    const articles = [
      ...Array.from({ length: 7 }, (_, n) =>
        article({ slug: `s${n}`, date: `2025-01-${String(20 - n).padStart(2, '0')}` }),
      ),
      article({ slug: 'draft', draft: true }),
    ];
    const feed = { ...FEED, limit: 5 };
    const rssLinks = asList(xml.parse(rssFeed(feed, META, articles, BASE, new Date(0))).rss.channel.item).map(
      (item: { link: string }) => item.link,
    );
    const atomLinks = asList(xml.parse(atomFeed(feed, META, articles, BASE, new Date(0))).feed.entry).map(
      (entry: { id: string }) => entry.id,
    );
    const jsonLinks = JSON.parse(jsonFeed(feed, META, articles, BASE, new Date(0))).items.map(
      (item: { url: string }) => item.url,
    );
    expect(rssLinks).toEqual(['s0', 's1', 's2', 's3', 's4'].map((slug) => `${BASE}/news/${slug}`));
    expect(atomLinks).toEqual(rssLinks);
    expect(jsonLinks).toEqual(rssLinks);
  });

  it('name their own address, the site, the author Atom asks for, and the dates', () => {
    const articles = [article({ slug: 'a', date: '2025-03-04', updated: '2025-03-10' })];
    const atom = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(
      atomFeed(FEED, META, articles, BASE, new Date(0)),
    ).feed;
    expect(asList(atom.link).map((link: Record<string, string>) => [link['@_rel'], link['@_href']])).toEqual([
      ['alternate', `${BASE}/`],
      ['self', `${BASE}/news/atom.xml`],
    ]);
    expect(atom.author.name).toBe('Site');
    expect(atom.id).toBe(`${BASE}/`);
    expect(atom.updated).toBe('2025-03-04T00:00:00.000Z');
    expect(atom.entry).toMatchObject({ updated: '2025-03-10T00:00:00.000Z', published: '2025-03-04T00:00:00.000Z' });
    const json = JSON.parse(jsonFeed(FEED, META, articles, BASE, new Date(0)));
    expect(json).toMatchObject({ home_page_url: `${BASE}/`, feed_url: `${BASE}/news/feed.json`, language: 'en' });
    expect(json.items[0]).toMatchObject({
      date_published: '2025-03-04T00:00:00.000Z',
      date_modified: '2025-03-10T00:00:00.000Z',
    });
  });
});

describe('the page head', () => {
  it('links the feed in each format, its title escaped', () => {
    const head = renderHead({
      head: { title: 'Home' },
      baseUrl: BASE,
      feed: { path: '/news/feed.xml', title: 'News & "more"' },
      styles: [],
    });
    expect(head).toContain(
      '<link rel="alternate" type="application/rss+xml" title="News &amp; &quot;more&quot;" href="/news/feed.xml">',
    );
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" title="News &amp; &quot;more&quot;" href="/news/atom.xml">',
    );
    expect(head).toContain(
      '<link rel="alternate" type="application/feed+json" title="News &amp; &quot;more&quot;" href="/news/feed.json">',
    );
  });
});
