import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/articles.ts';
import { SsgError, SsgErrorList } from '../src/errors.ts';
import { checkLinks, resolveLink } from '../src/render/links.ts';
import { rssFeed } from '../src/render/site-files.ts';

const files = new Set(['index.html', 'news/a.html', 'news/b.html', 'robots.txt']);
const page = (path: string, html: string, file?: string) => ({ path, html, file });

describe('resolveLink', () => {
  it('resolves relative links against the page and leaves other sites alone', () => {
    expect(resolveLink('b#x', '/news/a')).toEqual({ path: '/news/b', fragment: 'x' });
    expect(resolveLink('#top', '/news/a')).toEqual({ path: '/news/a', fragment: 'top' });
    expect(resolveLink('../robots.txt', '/news/a')).toEqual({ path: '/robots.txt', fragment: '' });
    for (const external of ['https://x.org/', '//cdn.x/a', 'mailto:a@b.c', 'data:image/png;base64,', '']) expect(resolveLink(external, '/news/a')).toBeUndefined();
  });

  it('never throws on random links and page paths', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (link, path) => void resolveLink(link, path)));
  });
});

describe('checkLinks', () => {
  it('accepts links to existing pages, files and ids', () => {
    expect(() =>
      checkLinks([page('/news/a', '<h2 id="x">X</h2><a href="b#y">b</a><a href="#x">x</a><a href="/robots.txt">r</a><a href="#">t</a>'), page('/news/b', '<p id="y"></p>')], files),
    ).not.toThrow();
  });

  it('reports a relative link to nothing and a missing fragment, naming the source file', () => {
    let error: unknown;
    try {
      checkLinks([page('/news/a', '<a href="c">c</a><a href="b#nope">b</a>', 'content/news/a.md'), page('/news/b', '')], files);
    } catch (caught) {
      error = caught;
    }
    const errors = (error as SsgErrorList).errors;
    expect(errors.map((each) => [each.code, each.file])).toEqual([
      ['LinkBroken', 'content/news/a.md'],
      ['LinkFragmentMissing', 'content/news/a.md'],
    ]);
    expect(errors[1]!.message).toBe('The page /news/a links to b#nope, but /news/b has no element with the id "nope".');
  });

  it('never throws anything but its own errors on random HTML', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), (hrefs) => {
        const html = hrefs.map((href) => `<a href="${href.replaceAll('"', '')}">x</a>`).join('');
        try {
          checkLinks([page('/news/a', html)], files);
        } catch (error) {
          expect(error instanceof SsgError || error instanceof SsgErrorList).toBe(true);
        }
      }),
    );
  });
});

describe('the feed', () => {
  it('never carries a draft, even when the build includes drafts', () => {
    const article = (slug: string, draft: boolean) => ({ slug, title: slug, date: '2025-01-01', excerpt: '', html: '', draft, data: {} }) as unknown as Article;
    const feed = rssFeed({ path: '/feed.xml', title: 'T', description: 'D', link: (a) => `/news/${a.slug}` }, undefined, [article('public', false), article('secret', true)], 'https://x.org', new Date());
    expect(feed).toContain('/news/public');
    expect(feed).not.toContain('secret');
  });
});
