import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { absolutizeUrls, rssFeed } from '../src/render/feeds.ts';

const PAGE = 'https://site.example/news/post';
const hrefs = (html: string) =>
  [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

describe('absolutizeUrls', () => {
  it('resolves relative, root-relative, protocol-relative and fragment links against the article URL', () => {
    const html =
      '<p><a href="/about">a</a> <a href="other">b</a> <a href="../x?y=1&amp;z=2">c</a> <a href="#top">d</a>' +
      ' <img src="/logo.svg" alt=""> <a href="//cdn.example/f">e</a> <a href="https://other.example/">f</a> <a href="mailto:a@b.example">g</a></p>';
    expect(hrefs(absolutizeUrls(html, PAGE))).toEqual([
      'https://site.example/about',
      'https://site.example/news/other',
      'https://site.example/x?y=1&z=2',
      'https://site.example/news/post#top',
      'https://site.example/logo.svg',
      'https://cdn.example/f',
      'https://other.example/',
      'mailto:a@b.example',
    ]);
  });

  it('for random paths: every href/src comes out absolute and resolves to what the browser would', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/);
    const relative = fc
      .tuple(fc.constantFrom('', '/', './', '../', '../../', '#', '?q='), fc.array(segment, { maxLength: 4 }))
      .map(([prefix, parts]) => prefix + parts.join('/'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('href', 'src'), relative), { minLength: 1, maxLength: 6 }),
        (links) => {
          const html = links.map(([name, value]) => `<a ${name}="${value.replaceAll('&', '&amp;')}">x</a>`).join('');
          const out = hrefs(absolutizeUrls(html, PAGE));
          expect(out).toHaveLength(links.length);
          out.forEach((url, i) => {
            const value = links[i]![1];
            let expected = value;
            try {
              if (value !== '') expected = new URL(value, PAGE).href;
            } catch {
              // `//` and the like: no URL, left as written.
            }
            expect(url).toBe(expected);
            if (expected !== value) expect(url).toMatch(/^https:\/\//);
          });
        },
      ),
    );
  });

  it('never throws and never changes text outside href/src, whatever the HTML', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        (text, pageUrl) => {
          const out = absolutizeUrls(text, pageUrl);
          if (!/\s(?:href|src)="/i.test(text)) expect(out).toBe(text);
        },
      ),
    );
  });

  it('leaves values no URL parser accepts as written', () => {
    expect(absolutizeUrls('<a href="http://[bad">x</a>', PAGE)).toBe('<a href="http://[bad">x</a>');
  });
});

describe('the feed', () => {
  it('carries the article HTML with absolute links and images, as valid XML', () => {
    const article = {
      slug: 'post',
      title: 'Post',
      date: '2025-01-01',
      excerpt: '',
      excerptHtml: '',
      markdown: '',
      data: {},
      draft: false,
      file: 'content/news/post.md',
      html: '<p><a href="/networks">networks</a> <img src="images/chart.png" alt="chart"> ]]&gt;</p>',
    } as Article;
    const xml = rssFeed(
      { path: '/news/feed.xml', title: 'T', description: 'D', link: (a) => `/news/${a.slug}` },
      undefined,
      [article],
      'https://site.example',
      new Date(0),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const content = new XMLParser().parse(xml).rss.channel.item['content:encoded'] as string;
    expect(content).toContain('href="https://site.example/networks"');
    expect(content).toContain('src="https://site.example/news/images/chart.png"');
  });

  it('without articles, is the same all day: a build that repeats the last one gives the same feed (fast-check)', () => {
    const feed = { path: '/news/feed.xml', title: 'T', description: 'D', link: (a: Article) => `/news/${a.slug}` };
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.nat(86_399_999),
        (now, offset) => {
          const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
          const xml = rssFeed(feed, undefined, [], 'https://site.example', now);
          expect(rssFeed(feed, undefined, [], 'https://site.example', new Date(dayStart + offset))).toBe(xml);
          expect(XMLValidator.validate(xml)).toBe(true);
        },
      ),
    );
  });
});
