import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import type { Article } from '../src/content/article.ts';
import { parseRedirectRules } from '../src/server/redirect-rules.ts';
import {
  checkRedirects,
  declaredRedirects,
  nginxRedirects,
  redirectPage,
  redirectsFile,
  type DeclaredRedirect,
} from '../src/render/redirects.ts';

const site = {
  pages: new Set(['/', '/news', '/news/hello', '/about']),
  files: new Set(['index.html', 'news/hello.html', 'robots.txt']),
};
const declared = (from: string, rule: DeclaredRedirect['rule'], declaredIn = 'site/index.tsx'): DeclaredRedirect => ({
  from,
  rule,
  declaredIn,
});

/** The catalogue case and the file of the failure `run` throws. */
function failure(run: () => unknown): { code: string; message: string; file?: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SsgError)) throw error;
    return { code: error.code, message: error.message, file: error.file };
  }
  throw new Error('expected a failure');
}

describe('checkRedirects', () => {
  it('keeps a redirect to a page, 301 unless told, its source without a trailing slash', () => {
    expect(
      checkRedirects(
        [declared('/blog/hello/', '/news/hello'), declared('/old', { destination: '/about', status: 308 })],
        site,
      ),
    ).toEqual([
      { from: '/blog/hello', to: '/news/hello', status: 301, declaredIn: 'site/index.tsx' },
      { from: '/old', to: '/about', status: 308, declaredIn: 'site/index.tsx' },
    ]);
  });

  it('follows a chain to its end, so a visitor takes one hop, keeping a fragment as a browser does', () => {
    const redirects = checkRedirects(
      [declared('/a', '/b#intro'), declared('/b', '/c?x=1'), declared('/c', '/news/hello'), declared('/d', '/c#top')],
      site,
    );
    expect(redirects.map((r) => [r.from, r.to])).toEqual([
      ['/a', '/news/hello#intro'],
      ['/b', '/news/hello'],
      ['/c', '/news/hello'],
      ['/d', '/news/hello#top'],
    ]);
  });

  it("writes a destination with a slash as the page's own address, so a visitor takes one hop", () => {
    expect(checkRedirects([declared('/x', '/news/?a=1#b')], site).map((r) => r.to)).toEqual(['/news?a=1#b']);
  });

  it('accepts files and other sites as destinations', () => {
    expect(
      checkRedirects([declared('/robots', '/robots.txt'), declared('/gh', 'https://github.com/x')], site).map(
        (r) => r.to,
      ),
    ).toEqual(['/robots.txt', 'https://github.com/x']);
  });

  it('refuses a source that is a page, naming the file that declared it', () => {
    const { message, file } = failure(() =>
      checkRedirects([declared('/news/hello/', '/about', 'content/news/x.md')], site),
    );
    expect(message).toContain('/news/hello is redirected, but it is a page');
    expect(file).toBe('content/news/x.md');
    expect(failure(() => checkRedirects([declared('/robots.txt', '/about')], site)).message).toContain('is a page');
  });

  it('refuses a destination that points nowhere, and a loop', () => {
    expect(failure(() => checkRedirects([declared('/x', '/nope')], site)).message).toContain(
      '/nope, which is no page or file',
    );
    expect(failure(() => checkRedirects([declared('/x', '/y'), declared('/y', '/x/')], site)).message).toContain(
      'loop: /x → /y → /x',
    );
    expect(failure(() => checkRedirects([declared('/x', '/x')], site)).message).toContain('loop');
  });

  it('refuses one source sent two ways, naming both files, but not the same redirect twice', () => {
    const twice = failure(() =>
      checkRedirects([declared('/x', '/about'), declared('/x/', '/news', 'content/news/y.md')], site),
    );
    expect(twice.message).toContain('here and in site/index.tsx');
    expect(twice.file).toBe('content/news/y.md');
    expect(
      checkRedirects([declared('/x', '/about'), declared('/x', '/about', 'content/news/y.md')], site),
    ).toHaveLength(1);
  });

  it('refuses malformed sources, destinations and statuses', () => {
    for (const from of ['blog', '/a b', '/a/../b', '/a?x', '/ä', '', '/a"b', '/a;b'])
      expect(failure(() => checkRedirects([declared(from, '/about')], site)).message).toContain(
        'is not a path on the site',
      );
    for (const to of [
      '',
      'about',
      'https://x.example/café',
      '/news/hello#café',
      '//evil.example',
      'javascript:alert(1)',
      '/a b',
      '/a"b',
      '/$host',
      'https://x/"',
    ])
      expect(failure(() => checkRedirects([declared('/x', to)], site)).message).toContain('neither a path');
    expect(
      failure(() => checkRedirects([declared('/x', { destination: '/about', status: 200 as 301 })], site)).message,
    ).toContain('status 200');
  });

  it('either returns redirects every host can hold or fails with a catalogue error, for any input', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~ "$;{}<>%-]{0,6}$/);
    const path = fc.array(segment, { maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(path, fc.oneof(path, fc.constantFrom('/news/hello', '/about', 'https://x.org/a?b=1'))), {
          maxLength: 6,
        }),
        (pairs) => {
          let redirects;
          try {
            redirects = checkRedirects(
              pairs.map(([from, to]) => declared(from, to)),
              site,
            );
          } catch (error) {
            expect(error).toBeInstanceOf(SsgError);
            expect((error as SsgError).code).toBe('RedirectInvalid');
            return;
          }
          for (const redirect of redirects) {
            expect(site.pages.has(redirect.from)).toBe(false);
            expect(redirect.from).toMatch(/^\/[A-Za-z0-9._~/-]*$/);
            expect(redirect.to).not.toMatch(/[\s"$;{}<>]/);
            // Every destination on the site is a page or a file: the chain was followed to its end.
            if (redirect.to.startsWith('/')) {
              const target = redirect.to.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1');
              expect(site.pages.has(target) || site.files.has(target.slice(1))).toBe(true);
            }
          }
        },
      ),
    );
  });
});

describe('the files for the hosts', () => {
  const redirects = checkRedirects(
    [
      declared('/blog/hello', '/news/hello'),
      declared('/gh', { destination: 'https://github.com/x?a=1&b=2', status: 302 }),
    ],
    site,
  );

  it('writes _redirects with both forms of each source', () => {
    expect(
      redirectsFile(redirects)
        .split('\n')
        .filter((line) => !line.startsWith('#')),
    ).toEqual([
      '/blog/hello /news/hello 301',
      '/blog/hello/ /news/hello 301',
      '/gh https://github.com/x?a=1&b=2 302',
      '/gh/ https://github.com/x?a=1&b=2 302',
      '',
    ]);
  });

  it('writes nginx exact locations', () => {
    expect(nginxRedirects(redirects)).toContain('location = /blog/hello/ { return 301 "/news/hello"; }');
  });

  it('writes a page with a canonical link and a refresh, its address escaped', () => {
    const html = redirectPage(redirects[1]!, 'https://example.com');
    const document = parseDocument(html);
    const text = JSON.stringify(document.children.map((node) => ('name' in node ? node.name : node.type)));
    expect(text).toContain('html');
    expect(html).toContain('<link rel="canonical" href="https://github.com/x?a=1&amp;b=2">');
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=https://github.com/x?a=1&amp;b=2">');
    expect(redirectPage(redirects[0]!, 'https://example.com')).toContain('href="https://example.com/news/hello"');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });
});

describe('declaredRedirects', () => {
  const article = (slug: string, movedFrom?: string[]) =>
    ({ slug, file: `content/news/${slug}.md`, ...(movedFrom ? { movedFrom } : {}) }) as unknown as Article;

  it("sends an article's earlier addresses to its page, relative ones from its page's folder", () => {
    const hello = article('hello', ['/blog/hello/', 'old-hello', '../2019/hi']);
    const declared = declaredRedirects({
      redirects: { '/team': '/about' },
      siteFile: 'site/index.tsx',
      articles: [hello, article('other')],
      pages: [{ path: '/news/hello', entry: { article: hello } }],
    });
    expect(declared).toEqual([
      { from: '/team', rule: '/about', declaredIn: 'site/index.tsx' },
      { from: '/blog/hello/', rule: '/news/hello', declaredIn: 'content/news/hello.md' },
      { from: '/news/old-hello', rule: '/news/hello', declaredIn: 'content/news/hello.md' },
      { from: '/2019/hi', rule: '/news/hello', declaredIn: 'content/news/hello.md' },
    ]);
    expect(checkRedirects(declared, site).map((r) => r.from)).toEqual([
      '/team',
      '/blog/hello',
      '/news/old-hello',
      '/2019/hi',
    ]);
  });

  it('refuses earlier addresses of an article no page shows, naming its file', () => {
    const lost = article('lost', ['/old']);
    expect(failure(() => declaredRedirects({ siteFile: 'site/index.tsx', articles: [lost], pages: [] }))).toMatchObject(
      { file: 'content/news/lost.md' },
    );
  });
});

describe('parseRedirectRules (what dev, preview and serve read of _redirects)', () => {
  it('reads simple rules, the first for a path winning, and leaves splats, placeholders and rewrites to the hosts', () => {
    const rules = parseRedirectRules(
      '# comment\n/a /b 301\n/a /c 302\n/d https://x.org/?q=1 308\n/e /f\n/g/* /h/:splat 301\n/i /j 200\n/k /l 404\n/m /n 301 extra\n',
    );
    expect([...rules]).toEqual([
      ['/a', { status: 301, location: '/b' }],
      ['/d', { status: 308, location: 'https://x.org/?q=1' }],
      ['/e', { status: 302, location: '/f' }],
    ]);
  });

  it('never throws and never yields a Location a header cannot carry, whatever the file holds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        for (const [from, rule] of parseRedirectRules(text)) {
          expect(from.startsWith('/')).toBe(true);
          expect(rule.location).toMatch(/^[\x21-\x7e]+$/);
          expect([301, 302, 303, 307, 308]).toContain(rule.status);
        }
      }),
    );
  });
});
