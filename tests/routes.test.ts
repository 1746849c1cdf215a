import { describe, expect, it } from 'vitest';
import { expandRoutes, outputPathFor } from '../src/render/routes.ts';
import type { SiteDefinition } from '../src/render/site-definition.ts';

const page = () => null;
const head = () => ({ title: 't' });

describe('outputPathFor', () => {
  it.each([
    ['/', 'index.html'],
    ['/about', 'about.html'],
    ['/news/hello', 'news/hello.html'],
    ['/404', '404.html'],
    ['/news/404', 'news/404.html'],
  ])('%s → %s', (url, file) => expect(outputPathFor(url)).toBe(file));
});

describe('expandRoutes', () => {
  const context = { articles: [], data: {}, collections: {} };

  it('expands a route with parameters into one page per entry', () => {
    const site: SiteDefinition = {
      routes: [
        { path: '/', page, head },
        {
          path: '/news/:slug',
          page,
          head,
          entries: () => [{ params: { slug: 'a' } }, { params: { slug: 'b' }, props: { n: 2 } }],
        },
      ],
    };
    expect(expandRoutes(site, context).map((job) => [job.path, job.outputPath, job.entry])).toEqual([
      ['/', 'index.html', {}],
      ['/news/a', 'news/a.html', {}],
      ['/news/b', 'news/b.html', { n: 2 }],
    ]);
  });

  it('rejects a parameter that is not a safe URL segment', () => {
    const site: SiteDefinition = {
      routes: [{ path: '/n/:slug', page, head, entries: () => [{ params: { slug: '../x' } }] }],
    };
    expect(() => expandRoutes(site, context)).toThrow(/parameter "slug" is "..\/x", not a safe URL segment/);
  });

  it('rejects two routes writing one file', () => {
    const site: SiteDefinition = {
      routes: [
        { path: '/a', page, head },
        { path: '/a/', page, head },
      ],
    };
    expect(() => expandRoutes(site, context)).toThrow(/both write a.html/);
  });

  it('rejects parameters without entries and paths without a leading slash', () => {
    expect(() => expandRoutes({ routes: [{ path: '/n/:slug', page, head }] }, context)).toThrow(/no entries/);
    expect(() => expandRoutes({ routes: [{ path: 'about', page, head }] }, context)).toThrow(/must start with "\/"/);
  });

  it('marks 404 pages, and those and the routes marked noindex as kept from search engines', () => {
    const jobs = expandRoutes(
      {
        routes: [
          { path: '/404', page, head },
          { path: '/x', page, head },
          { path: '/thanks', page, head, noindex: true },
        ],
      },
      context,
    );
    expect(jobs.map((job) => job.notFound)).toEqual([true, false, false]);
    expect(jobs.map((job) => job.noindex)).toEqual([true, false, true]);
  });
});
