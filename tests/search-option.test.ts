import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import { headersFile, nginxHeadersFile } from '../src/render/site-files.ts';
import { checkSearch, searchHeader, searchPolicy, WASM_SOURCE } from '../src/search/search.ts';
import type { PageJob } from '../src/render/routes.ts';

const ROUTES = ['/', '/news', '/news/:slug', '/about'];

/** The catalogue case a value for `search` is refused with, or 'accepted'. */
function verdict(value: unknown): string {
  try {
    checkSearch(value, ROUTES, 'site/index.tsx');
    return 'accepted';
  } catch (error) {
    if (!(error instanceof SsgError)) throw error;
    return `${error.code}:${error.message}`;
  }
}

describe('defineSite({ search }) is checked against the routes', () => {
  it('accepts route paths of the site and an optional language', () => {
    const search = checkSearch({ indexed: ['/news/:slug'], pages: ['/news'], language: 'en' }, ROUTES, 'x')!;
    expect([...search.indexed]).toEqual(['/news/:slug']);
    expect([...search.pages]).toEqual(['/news']);
    expect(search.language).toBe('en');
    expect(checkSearch(undefined, ROUTES, 'x')).toBeUndefined();
  });

  it.each([
    ['not an object', 'news', /must be an object/],
    ['a list', [], /must be an object/],
    ['an unknown field', { indexed: ['/news'], pages: ['/news'], index: true }, /"index"/],
    ['no indexed routes', { indexed: [], pages: ['/news'] }, /search\.indexed must be a list/],
    ['pages missing', { indexed: ['/news'] }, /search\.pages must be a list/],
    ['a route the site lacks', { indexed: ['/blog/:slug'], pages: ['/news'] }, /"\/blog\/:slug"/],
    ['a number for a route', { indexed: [1], pages: ['/news'] }, /search\.indexed/],
    ['a language that is no code', { indexed: ['/news'], pages: ['/news'], language: 'English' }, /"English"/],
  ])('refuses %s, naming the field', (_, value, message) => {
    const said = verdict(value);
    expect(said).toMatch(/^SearchInvalid:/);
    expect(said).toMatch(message);
  });

  it('accepts exactly the lists of known routes, whatever else is given', () => {
    const route = fc.oneof(fc.constantFrom(...ROUTES), fc.string());
    fc.assert(
      fc.property(fc.array(route), fc.array(route), (indexed, pages) => {
        const known = (list: string[]) => list.length > 0 && list.every((item) => ROUTES.includes(item));
        expect(verdict({ indexed, pages }) === 'accepted').toBe(known(indexed) && known(pages));
      }),
    );
  });
});

describe("the search pages' Content-Security-Policy", () => {
  const directive = fc
    .tuple(
      fc.constantFrom('default-src', 'script-src', 'connect-src', 'style-src', 'img-src', 'object-src'),
      fc.array(fc.constantFrom("'self'", "'none'", 'https://cdn.example', "'sha256-abc='", 'data:'), {
        maxLength: 3,
      }),
    )
    .map(([name, sources]) => [name, ...sources].join(' '));
  const policy = fc.uniqueArray(directive, { selector: (text) => text.split(' ')[0] }).map((parts) => parts.join('; '));

  it('allows WebAssembly and fetching from the site, and leaves every other directive as it was', () => {
    fc.assert(
      fc.property(policy, (written) => {
        const made = searchPolicy(written);
        const directives = new Map(made.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));
        const before = new Map(written.split('; ').map((part) => [part.split(' ')[0], part]));
        const restricted = before.has('script-src') || before.has('default-src');
        if (restricted) expect(directives.get('script-src')).toContain(WASM_SOURCE);
        if (before.has('connect-src') || before.has('default-src'))
          expect(directives.get('connect-src')).toContain("'self'");
        for (const [name, part] of before)
          if (name !== 'script-src' && name !== 'connect-src') expect(made.split('; ')).toContain(part);
        expect(searchPolicy(made)).toBe(made);
      }),
    );
  });

  it("writes the search's policy for its pages and the index only, and every other header as before", () => {
    const headers = { 'Content-Security-Policy': "default-src 'self'; script-src 'self'", 'X-Frame-Options': 'DENY' };
    const jobs = [
      { path: '/news', route: { path: '/news' } },
      { path: '/about', route: { path: '/about' } },
    ] as unknown as PageJob[];
    const search = checkSearch({ indexed: ['/news'], pages: ['/news'] }, ROUTES, 'x');
    const header = searchHeader(search, jobs, headers)!;
    expect(header.paths).toEqual(['/news', '/pagefind/*']);
    const plain = headersFile(headers);
    const withSearch = headersFile(headers, undefined, header);
    expect(withSearch.startsWith(plain)).toBe(true);
    expect(plain).not.toContain('wasm-unsafe-eval');
    expect(withSearch.slice(plain.length)).toBe(
      [
        '/news',
        '  ! Content-Security-Policy',
        "  Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
        '/pagefind/*',
        '  ! Content-Security-Policy',
        "  Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
        '',
      ].join('\n'),
    );
    const nginx = nginxHeadersFile(headers, [], undefined, header);
    expect(nginx).toContain(`if ($uri ~ "^/news(\\.html)?$|^/pagefind/")`);
    expect(nginx).toContain('add_header Content-Security-Policy $ssg_csp always;');
    expect(nginx).toContain('add_header X-Frame-Options "DENY" always;');
    // A folder with headers of its own (the editor's) keeps them: its location lists every header.
    const folder = { path: '/admin', headers: { 'Content-Security-Policy': "default-src 'none'" } };
    const both = nginxHeadersFile(headers, [], [folder], header);
    expect(both).toContain(`location ^~ /admin/ {\n  add_header Content-Security-Policy "default-src 'none'" always;`);
    // The editor's rules follow the search's: a site without an editor writes the same file up to them.
    expect(headersFile(headers, [folder], header).startsWith(withSearch)).toBe(true);
    expect(searchHeader(undefined, jobs, headers)).toBeUndefined();
  });
});
