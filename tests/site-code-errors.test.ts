// An exception in the site's code is the site's to fix: the CLI names the site file and line (from
// the source map) under the failure's own name, exits 1, and keeps "Unexpected internal error" for
// bugs of the generator itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueError, formatAnyError } from '../src/errors/errors.ts';
import { errorCatalogue, type ErrorCode } from '../src/errors/errors-data.ts';
import { siteFrame } from '../src/errors/site-code-error.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const MARK = '// <- throws here';

/** A site whose route table is `source`; returns the 1-based line of the marked statement. */
async function siteWith(files: Record<string, string>): Promise<TempSite> {
  const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
  for (const [file, source] of Object.entries(files)) await site.write(file, source);
  return site;
}

const lineOf = (source: string) => source.split('\n').findIndex((line) => line.includes(MARK)) + 1;

const routeTable = (parts: {
  top?: string;
  entries?: string;
  page?: string;
  head?: string;
}) => `import { defineSite } from 'ssg';
${parts.top ?? ''}
function Page() {
  ${parts.page ?? ''}
  return <h1>Page</h1>;
}

export default defineSite({
  routes: [
    { path: '/', page: Page, head: () => {
      ${parts.head ?? ''}
      return { title: 'Home' };
    } },
    {
      path: '/news/:slug',
      page: Page,
      head: () => ({ title: 'Article' }),
      entries: ({ articles }) => {
        ${parts.entries ?? ''}
        return articles.map((article) => ({ params: { slug: article.slug } }));
      },
    },
  ],
});
`;

let site: TempSite | undefined;
afterEach(async () => {
  await site?.dispose();
  site = undefined;
});

async function expectSiteError(files: Record<string, string>, name: ErrorCode, where: string) {
  site = await siteWith(files);
  const result = await site.run(['build']);
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toContain('Build failed');
  // The name and the entry's title, then where (and what) on the next line.
  expect(result.stderr).toContain(`[${name}] ${errorCatalogue[name].title}\n  ${where}`);
  expect(result.stderr).toContain('hint:');
  expect(result.stderr).not.toContain('Unexpected internal error');
  expect(existsSync(site.file('dist/index.html'))).toBe(false);
}

describe('exceptions thrown by site code, reported at the site file and line', () => {
  it("a route's entries() that throws", async () => {
    const source = routeTable({ entries: `throw new Error('no articles today'); ${MARK}` });
    await expectSiteError({ 'site/index.tsx': source }, 'RouteEntriesFailed', `site/index.tsx:${lineOf(source)}:`);
  });

  it('site/index.tsx that throws while it is loaded', async () => {
    const source = routeTable({ top: `if (Date.now() > 0) throw new Error('top level'); ${MARK}` });
    await expectSiteError({ 'site/index.tsx': source }, 'SiteModuleThrew', `site/index.tsx:${lineOf(source)}:`);
  });

  it('a module the route table imports that throws while it is loaded', async () => {
    const helper = `export const value = 1;\nif (value === 1) throw new Error('helper failed'); ${MARK}\n`;
    const source = routeTable({ top: `import { value } from './helper.ts';\nvoid value;` });
    await expectSiteError(
      { 'site/index.tsx': source, 'site/helper.ts': helper },
      'SiteModuleThrew',
      `site/helper.ts:${lineOf(helper)}:`,
    );
  });

  it('a component that throws', async () => {
    const source = routeTable({ page: `if (Date.now() > 0) throw new Error('component failed'); ${MARK}` });
    await expectSiteError({ 'site/index.tsx': source }, 'PageRenderFailed', `site/index.tsx:${lineOf(source)}:`);
  });

  it('a head() that throws', async () => {
    const source = routeTable({ head: `if (Date.now() > 0) throw new Error('head failed'); ${MARK}` });
    await expectSiteError({ 'site/index.tsx': source }, 'PageRenderFailed', `site/index.tsx:${lineOf(source)}:`);
  });

  it('entries() listing null is a route error, not a crash', async () => {
    const source = routeTable({ entries: `if (articles) return [null] as never; ${MARK}` });
    site = await siteWith({ 'site/index.tsx': source });
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[RouteInvalid] A route is malformed\n  Route /news/:slug: each entry needs params',
    );
    expect(result.stderr).not.toContain('Unexpected internal error');
  });

  it('entries() returning something that is not a list is a route error, not a crash', async () => {
    const source = routeTable({ entries: `if (articles) return null as never; ${MARK}` });
    site = await siteWith({ 'site/index.tsx': source });
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[RouteInvalid]');
    expect(result.stderr).toContain('returned null, not a list');
  });
});

describe('what is and is not the site', () => {
  it('a bug of the generator stays an unexpected internal error, with its stack', () => {
    expect(formatAnyError(new TypeError('x is undefined'))).toMatch(
      /^Unexpected internal error: TypeError: x is undefined/,
    );
    expect(
      formatAnyError(
        catalogueError('RouteEntriesFailed', ['entries() of the route /a', 'boom'], { file: 'site/a.ts', line: 3 }),
      ),
    ).toMatch(
      /^\[RouteEntriesFailed\] A route's entries\(\) threw\n {2}site\/a\.ts:3: entries\(\) of the route \/a threw: boom\n {2}hint: /,
    );
  });

  it('takes the first frame in the site, skipping the generator, packages and caches', () => {
    const root = '/srv/site';
    const error = new Error('boom');
    error.stack = [
      'Error: boom',
      `    at render (${path.join(repoRoot, 'src', 'render', 'render.ts')}:10:5)`,
      '    at x (file:///srv/site/node_modules/react/index.js:1:1)',
      '    at y (/srv/site/.cache/ssg/server-1-1.mjs:5:5)',
      '    at Page (file:///srv/site/site/pages/a%20b.tsx:12:7)',
      '    at /srv/site/site/index.tsx:3:1',
    ].join('\n');
    expect(siteFrame(error, root)).toEqual({ file: 'site/pages/a b.tsx', line: 12 });
    expect(siteFrame(new Error('no frames'), root)).toBeUndefined();
    expect(siteFrame('not an error', root)).toBeUndefined();
  });
});
