import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { checkLinks, createLinkCheckMemo, pageLinks, resolveLink, type PageLinks } from '../src/render/links.ts';
import { rssFeed } from '../src/render/feeds.ts';

const files = new Set(['index.html', 'news/a.html', 'news/b.html', 'robots.txt']);
const page = (path: string, html: string, file?: string) => ({ path, html, file });

describe('resolveLink', () => {
  it('resolves relative links against the page and leaves other sites alone', () => {
    expect(resolveLink('b#x', '/news/a')).toEqual({ path: '/news/b', fragment: 'x' });
    expect(resolveLink('#top', '/news/a')).toEqual({ path: '/news/a', fragment: 'top' });
    expect(resolveLink('../robots.txt', '/news/a')).toEqual({ path: '/robots.txt', fragment: '' });
    for (const external of ['https://x.org/', '//cdn.x/a', 'mailto:a@b.c', 'data:image/png;base64,', ''])
      expect(resolveLink(external, '/news/a')).toBeUndefined();
  });

  it('never throws on random links and page paths', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (link, path) => void resolveLink(link, path)));
  });
});

describe('checkLinks', () => {
  it('accepts links to existing pages, files and ids', () => {
    expect(() =>
      checkLinks(
        [
          page(
            '/news/a',
            '<h2 id="x">X</h2><a href="b#y">b</a><a href="#x">x</a><a href="/robots.txt">r</a><a href="#">t</a>',
          ),
          page('/news/b', '<p id="y"></p>'),
        ],
        files,
      ),
    ).not.toThrow();
  });

  it('reports a relative link to nothing and a missing fragment, naming the source file', () => {
    let error: unknown;
    try {
      checkLinks(
        [page('/news/a', '<a href="c">c</a><a href="b#nope">b</a>', 'content/news/a.md'), page('/news/b', '')],
        files,
      );
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

  it('reports a link carried by many pages once, where it is written, with how many pages carry it', () => {
    const layout = '<a href="/team">Team</a>';
    const pages = [
      page('/', layout),
      page('/news/a', `${layout}<a href="b#nope">b</a>`, 'content/news/a.md'),
      page('/news/b', layout, 'content/news/b.md'),
    ];
    const asked: [string, readonly (string | undefined)[]][] = [];
    const locate = (written: string, sources: readonly (string | undefined)[]) => {
      asked.push([written, sources]);
      return written === '/team'
        ? { file: 'site/components/layout.tsx', line: 27, written }
        : { file: 'content/news/a.md', line: 4, written: '../b.md#nope' };
    };
    let error: unknown;
    try {
      checkLinks(pages, files, undefined, undefined, { locate });
    } catch (caught) {
      error = caught;
    }
    const errors = (error as SsgErrorList).errors;
    expect(errors.map((each) => [each.code, each.file, each.line, each.message])).toEqual([
      [
        'LinkBroken',
        'site/components/layout.tsx',
        27,
        'The page / and 2 other pages link to /team, which no route or public file provides.',
      ],
      [
        'LinkFragmentMissing',
        'content/news/a.md',
        4,
        'The page /news/a links to ../b.md#nope, but /news/b has no element with the id "nope".',
      ],
    ]);
    expect(asked).toEqual([
      ['/team', [undefined, 'content/news/a.md', 'content/news/b.md']],
      ['b#nope', ['content/news/a.md']],
    ]);
  });

  it('names no article for a link on pages of several files when nothing says where it is written', () => {
    const pages = [
      page('/news/a', '<a href="/x">x</a>', 'content/news/a.md'),
      page('/news/b', '<a href="/x">x</a>', 'content/news/b.md'),
    ];
    expect(() => checkLinks(pages, files)).toThrow(
      expect.objectContaining({
        code: 'LinkBroken',
        file: undefined,
        message: 'The page /news/a and 1 other page link to /x, which no route or public file provides.',
      }),
    );
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

describe('reading a page as a browser does', () => {
  it('takes links and ids from the markup only: never from text, code samples, comments, scripts or styles', () => {
    const html = [
      '<p>Write <code>&lt;img src="/missing.png"&gt;</code> or <code><a href="/nowhere">a</a></code> to link.</p>',
      '<pre><code>&lt;a href="/no-such-page" id="fake"&gt;</code></pre>',
      '<!-- <a href="/commented-out"> -->',
      '<script type="application/ld+json">{"@context":"https://schema.org","url":"x", "x": "<a href=\\"/in-json\\">"}</script>',
      '<style>a[href="/in-css"] { color: red }</style>',
      '<textarea><a href="/in-textarea"></textarea>',
      '<a HREF="/news/a?x=1&amp;y=2#top" name="anchor">ok</a><input name="field"><div ID="upper"></div>',
    ].join('');
    const links = pageLinks(page('/news/b', html));
    // The one real anchor in a code element is a link all the same; the rest is text.
    expect(links.links.map((link) => link.written)).toEqual(['/nowhere', '/news/a?x=1&y=2#top']);
    expect([...links.ids].sort()).toEqual(['anchor', 'upper']);
  });

  it('an article that shows HTML in its code passes the check (it failed when links were read with regexes)', () => {
    const html =
      '<p>Use <code>&lt;img src="/missing.png"&gt;</code> and <code>&lt;a href="/gone"&gt;</code>.</p><a href="/news/a">a</a>';
    expect(() => checkLinks([page('/news/b', html), page('/news/a', '')], files)).not.toThrow();
  });
});

describe('checkLinks with a memo (dev mode)', () => {
  const outcome = (run: () => void) => {
    try {
      run();
      return 'passes';
    } catch (error) {
      return error instanceof SsgErrorList
        ? error.errors.map((each) => each.message).join('\n')
        : (error as Error).message;
    }
  };

  it('finds what a check without one finds, over random sequences of page and file changes (fast-check)', () => {
    const paths = ['/', '/a', '/b', '/c'];
    const pageHtml = fc
      .array(
        fc.constantFrom(
          '<a href="/a">',
          '<a href="/b#x">',
          '<a href="/c#y">',
          '<a href="/b#y">',
          '<a href="#x">',
          '<img src="/pic.png">',
          '<h2 id="x">',
          '<p id="y">',
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join(''));
    const step = fc.record({
      // Each page: kept as the same object as before (null) or given new HTML.
      pages: fc.tuple(...paths.map(() => fc.option(pageHtml, { nil: null, freq: 2 }))),
      pictureThere: fc.boolean(),
      cThere: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const memo = createLinkCheckMemo();
        let current: PageLinks[] = paths.map((path) => pageLinks({ path, html: '' }));
        for (const { pages, pictureThere, cThere } of steps) {
          current = current.map((before, index) =>
            pages[index] === null ? before : pageLinks({ path: paths[index]!, html: pages[index]! }),
          );
          const present = current.filter((page) => page.path !== '/c' || cThere);
          const files = new Set([
            ...present.map((page) => (page.path === '/' ? 'index.html' : `${page.path.slice(1)}.html`)),
            ...(pictureThere ? ['pic.png'] : []),
          ]);
          expect(outcome(() => checkLinks(present, files, undefined, memo))).toBe(
            outcome(() => checkLinks(present, files)),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('checks again a page whose fragment now points at a changed page, though the page itself is unchanged', () => {
    const memo = createLinkCheckMemo();
    const home = pageLinks({ path: '/', html: '<a href="/b#x">b</a>' });
    const files = new Set(['index.html', 'b.html']);
    checkLinks([home, pageLinks({ path: '/b', html: '<h2 id="x">X</h2>' })], files, undefined, memo);
    expect(() =>
      checkLinks([home, pageLinks({ path: '/b', html: '<h2 id="z">Z</h2>' })], new Set(files), undefined, memo),
    ).toThrow('The page / links to /b#x, but /b has no element with the id "x".');
    // And a file gone since: the unchanged page's link is looked at again.
    expect(() => checkLinks([home], new Set(['index.html']), undefined, memo)).toThrow(
      'The page / links to /b#x, which no route or public file provides.',
    );
  });
});

describe('the feed', () => {
  it('never carries a draft, even when the build includes drafts', () => {
    const article = (slug: string, draft: boolean) =>
      ({
        slug,
        title: slug,
        date: '2025-01-01',
        excerpt: '',
        excerptHtml: '',
        html: '',
        draft,
        data: {},
      }) as unknown as Article;
    const feed = rssFeed(
      { path: '/feed.xml', title: 'T', description: 'D', link: (a) => `/news/${a.slug}` },
      undefined,
      [article('public', false), article('secret', true)],
      'https://x.org',
      new Date(),
    );
    expect(feed).toContain('/news/public');
    expect(feed).not.toContain('secret');
  });
});
