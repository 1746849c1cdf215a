import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import type { ClientBundle } from '../src/render/bundles.ts';
import { catalogueError, SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { listFiles } from '../src/output/output-file.ts';
import { createInPlaceOutput } from '../src/output/in-place-output.ts';
import { checkDrawnClashes, checkPublicClashes } from '../src/pipeline/site-checks.ts';
import { publishArticles } from '../src/pipeline/publish.ts';
import { isSiteFilePath } from '../src/render/site-files.ts';
import { projectAt } from '../src/project.ts';
import type { PageJob } from '../src/render/routes.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ssg-pipeline-'));
  folders.push(dir);
  return dir;
};

const article = (file: string, slug: string, date: string, draft = false) =>
  ({ file, slug, date, draft, title: slug, markdown: '', html: '', data: {} }) as unknown as Article;

describe('publishArticles', () => {
  it('reports every bad file and every duplicate in file order, whatever order they come in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            name: fc.stringMatching(/^[a-c]{1,2}$/),
            slug: fc.constantFrom('x', 'y', 'z'),
            bad: fc.boolean(),
          }),
          { selector: (entry) => entry.name, maxLength: 8 },
        ),
        (entries) => {
          const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : 1));
          const expected: string[] = [];
          const seen = new Map<string, string>();
          for (const entry of sorted) {
            if (entry.bad) expected.push(`bad ${entry.name}`);
            else if (seen.has(entry.slug))
              expected.push(`The slug "${entry.slug}" is already used by ${seen.get(entry.slug)}.`);
            else seen.set(entry.slug, entry.name);
          }
          const byFile = new Map<string, Article | SsgError>(
            entries.map((entry) => [
              entry.name,
              entry.bad
                ? catalogueError('FrontMatterFieldInvalid', [`bad ${entry.name}`])
                : article(entry.name, entry.slug, '2024-01-01'),
            ]),
          );
          let messages: string[] = [];
          try {
            publishArticles(byFile, { drafts: true, now: new Date('2025-01-01') });
          } catch (error) {
            messages = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => item.message);
          }
          expect(messages).toEqual(expected);
        },
      ),
    );
  });

  it('leaves drafts and future posts out unless asked, newest first', () => {
    const byFile = new Map([
      ['a.md', article('a.md', 'a', '2024-01-01')],
      ['b.md', article('b.md', 'b', '2024-02-01', true)],
      ['c.md', article('c.md', 'c', '2024-03-01')],
      ['d.md', article('d.md', 'd', '2024-05-01')],
    ]);
    const now = new Date('2024-04-01T00:00:00Z');
    const slugs = (options: { drafts?: boolean; future?: boolean }) =>
      publishArticles(byFile, { ...options, now }).map((item) => item.slug);
    expect(slugs({})).toEqual(['c', 'a']);
    expect(slugs({ drafts: true })).toEqual(['c', 'b', 'a']);
    expect(slugs({ future: true })).toEqual(['d', 'c', 'a']);
    expect(slugs({ drafts: true, future: true })).toEqual(['d', 'c', 'b', 'a']);
  });

  it('names a duplicate slug even when one of the two is held back (it is published one day)', () => {
    const byFile = new Map([
      ['a.md', article('a.md', 'same', '2024-01-01')],
      ['b.md', article('b.md', 'same', '2030-01-01', true)],
    ]);
    expect(() => publishArticles(byFile, { now: new Date('2024-04-01') })).toThrow(/already used by a\.md/);
  });
});

describe('checkPublicClashes', () => {
  const client = { assets: [{ path: 'assets/a.js', contents: new Uint8Array() }] } as unknown as ClientBundle;
  const jobs = ['index.html', 'about.html', 'news/x.html'].map((outputPath) => ({ outputPath }) as PageJob);
  it('names each public file at an asset or page path, in that order, and passes anything else', () => {
    fc.assert(
      fc.property(
        fc.subarray(['about.html', 'assets/a.js', 'robots.txt', 'news/x.html', 'news/x/y.html', 'x']),
        (publicFiles) => {
          const clashing = ['assets/a.js', 'index.html', 'about.html', 'news/x.html'].filter((file) =>
            publicFiles.includes(file),
          );
          let named: string[] = [];
          try {
            checkPublicClashes(client, jobs, new Set(publicFiles), '/p/site/public');
          } catch (error) {
            named = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => {
              expect(item.code).toBe('PublicFileClash');
              return item.message;
            });
          }
          expect(named).toEqual(
            clashing.map((file) => `The public file ${file} has the same path as a generated file.`),
          );
        },
      ),
    );
  });
});

describe('checkPublicClashes: folders', () => {
  const client = { assets: [{ path: 'assets/a.js', contents: new Uint8Array() }] } as unknown as ClientBundle;
  const jobs = ['index.html', 'about.html', 'news/x.html'].map((outputPath) => ({ outputPath }) as PageJob);
  // A public file where the build needs a folder, or inside a file the build writes: writing
  // the site would fail (it was reported as a folder that is not writable).
  const folderFor: Record<string, string> = { news: 'news/x.html', assets: 'assets/a.js' };
  const insideOf: Record<string, string> = {
    'about.html/readme.txt': 'about.html',
    'news/x.html/y': 'news/x.html',
    'index.html/a/b.txt': 'index.html',
  };
  it('names each, in the order of the public files, and passes files beside them', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([
          ...Object.keys(folderFor),
          ...Object.keys(insideOf),
          'news/x/y.html',
          'newsletter',
          'assets.txt',
          'about/readme.txt',
        ]),
        (publicFiles) => {
          let named: string[] = [];
          try {
            checkPublicClashes(client, jobs, new Set(publicFiles), '/p/site/public');
          } catch (error) {
            named = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => {
              expect([item.code, item.file]).toEqual(['PublicFileClash', expect.stringMatching(/^site\/public\//)]);
              return item.message;
            });
          }
          const expected = publicFiles.flatMap((file) =>
            file in folderFor
              ? [`The public file ${file} is where the build needs a folder, for ${folderFor[file]}.`]
              : file in insideOf
                ? [`The public file ${file} is inside ${insideOf[file]}, which the build writes as a file.`]
                : [],
          );
          expect(named).toEqual(expected);
        },
      ),
    );
  });
});

/** What the clash checks compare with: an asset, and pages (the last served at a URL like a file's). */
const clashClient = { assets: [{ path: 'assets/a.js', contents: new Uint8Array() }] } as unknown as ClientBundle;
const clashJobs = [
  { path: '/', outputPath: 'index.html' },
  { path: '/about', outputPath: 'about.html' },
  { path: '/news/x', outputPath: 'news/x.html' },
  { path: '/card.png', outputPath: 'card.png.html' },
] as PageJob[];

describe('checkDrawnClashes', () => {
  const client = clashClient;
  const jobs = clashJobs;
  const generated = ['sitemap.xml', 'assets/chart-400w-0123456789.png'].map((file) => ({ path: file, contents: '' }));
  // What each drawn path is taken by: a page's file, the URL a page is served at, an asset, another built file.
  const takenBy: Record<string, string> = {
    'about.html': 'about.html, the page /about',
    'news/x.html': 'news/x.html, the page /news/x',
    'card.png': 'the page /card.png',
    'assets/a.js': 'the built file assets/a.js',
    'sitemap.xml': 'the built file sitemap.xml',
    'assets/chart-400w-0123456789.png': 'the built file assets/chart-400w-0123456789.png',
  };
  it('names each drawn file at the path of a page, its URL, an asset or a built file, in drawn order, naming the site code', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...Object.keys(takenBy), 'news/x.png', 'card.svg', 'news/about.html', 'index.htm']),
        (drawn) => {
          let named: Array<[string, string | undefined]> = [];
          try {
            checkDrawnClashes(
              drawn.map((file) => ({ path: file, contents: '' })),
              { client, jobs, generated },
              projectAt('/p'),
            );
          } catch (error) {
            named = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => [
              item.code,
              item.where,
            ]);
            expect(
              (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => item.message),
            ).toEqual(
              drawn
                .filter((file) => file in takenBy)
                .map((file) => `The generated file /${file} has the same path as ${takenBy[file]}.`),
            );
          }
          expect(named).toEqual(
            drawn.filter((file) => file in takenBy).map(() => ['GeneratedFileClash', 'site/index.tsx']),
          );
        },
      ),
    );
  });
});

describe('checkDrawnClashes: folders', () => {
  const client = clashClient;
  const jobs = clashJobs;
  const generated = [{ path: 'sitemap.xml', contents: '' }];
  it('names a drawn file where another needs a folder, or inside another file; a folder beside a page or its URL is fine', () => {
    const harmless = ['news/x.png', 'news/x/y.png', 'card.png/x.png', 'about/og.png', 'og/a.png'];
    fc.assert(
      fc.property(
        fc.shuffledSubarray([
          'news',
          'assets',
          'og',
          'sitemap.xml/x.png',
          'about.html/og.png',
          'news/x.html/a/b.png',
          ...harmless,
        ]),
        (drawn) => {
          const folderFor: Record<string, string | undefined> = {
            news: 'news/x.html',
            assets: 'assets/a.js',
            og: drawn.includes('og/a.png') ? 'og/a.png' : undefined,
          };
          const insideOf: Record<string, string> = {
            'sitemap.xml/x.png': 'sitemap.xml',
            'about.html/og.png': 'about.html',
            'news/x.html/a/b.png': 'news/x.html',
          };
          let named: string[] = [];
          try {
            checkDrawnClashes(
              drawn.map((file) => ({ path: file, contents: '' })),
              { client, jobs, generated },
              projectAt('/p'),
            );
          } catch (error) {
            named = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => {
              expect([item.code, item.where]).toEqual(['GeneratedFileClash', 'site/index.tsx']);
              return item.message;
            });
          }
          const expected = drawn.flatMap((file) =>
            folderFor[file]
              ? [`The generated file /${file} is where the build needs a folder, for /${folderFor[file]}.`]
              : file in insideOf
                ? [`The generated file /${file} is inside /${insideOf[file]}, which the build writes as a file.`]
                : [],
          );
          expect(named).toEqual(expected);
        },
      ),
    );
  });
});

describe('the feed path', () => {
  it('is a path on the site: never outside the output folder, never a folder, always with an extension', () => {
    for (const good of ['/news/feed.xml', '/feed.xml', '/a.b/c-d_e~f.rss'])
      expect(isSiteFilePath(good), good).toBe(true);
    for (const bad of [
      '/../escaped.xml',
      '/news/../../x.xml',
      'feed.xml',
      '/news/',
      '/news',
      '/./feed.xml',
      '//feed.xml',
      '/news/feed.xml/',
      '/.feed.xml',
      '/a b.xml',
      '',
    ]) {
      expect(isSiteFilePath(bad), bad).toBe(false);
    }
    // Whatever is accepted stays inside the output folder, as it is written.
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('/', '.', 'a', 'b', '-', '~', '_', '%', ' ', '\\'), maxLength: 14 }),
        (candidate) => {
          if (!isSiteFilePath(candidate)) return;
          const written = path.posix.join('/out', candidate);
          expect(written.startsWith('/out/')).toBe(true);
          expect(path.posix.normalize(candidate)).toBe(candidate);
        },
      ),
      { numRuns: 2000 },
    );
  });

  const client = clashClient;
  const jobs = clashJobs;
  const siteFile = (file: string) => ({ path: file, contents: '' });
  // What a feed at each path clashes with; the feed is among the site files, as the build passes it.
  const clashes: Record<string, string> = {
    '/about.html': 'The feed /about.html has the same path as about.html, the page /about.',
    '/card.png': 'The feed /card.png has the same path as the page /card.png.',
    '/assets/a.js': 'The feed /assets/a.js has the same path as the built file assets/a.js.',
    '/sitemap.xml': 'The feed /sitemap.xml has the same path as the built file sitemap.xml.',
    '/og/a.png': 'The feed /og/a.png has the same path as the generated file /og/a.png.',
    '/og': 'The feed /og is where the build needs a folder, for /og/a.png.',
    '/news': 'The feed /news is where the build needs a folder, for /news/x.html.',
    '/news/x.html/feed.xml': 'The feed /news/x.html/feed.xml is inside /news/x.html, which the build writes as a file.',
  };
  it('is refused where a page, a built file or a folder they need is, and passes elsewhere', () => {
    for (const at of [
      ...Object.keys(clashes),
      '/news/feed.xml',
      '/feed.xml',
      '/news/x/feed.xml',
      '/card.png/feed.xml',
    ]) {
      const generated = ['sitemap.xml', 'robots.txt'].map(siteFile);
      const drawn = ['og/a.png', 'news/feed.png'].map(siteFile);
      generated.push(siteFile(at.slice(1))); // the feed itself
      let named: string[] = [];
      try {
        checkDrawnClashes(drawn, { client, jobs, generated }, projectAt('/p'), [{ path: at }]);
      } catch (error) {
        named = (error instanceof SsgErrorList ? error.errors : [error as SsgError]).map((item) => {
          expect([item.code, item.where]).toEqual(['GeneratedFileClash', 'site/index.tsx']);
          return item.message;
        });
      }
      expect(named, at).toEqual(at in clashes ? [clashes[at]] : []);
    }
  });
});

describe('createInPlaceOutput', () => {
  const names = fc.constantFrom(
    'index.html',
    'about.html',
    'news/a.html',
    'news/deep/b.html',
    'robots.txt',
    'docs/guide.txt',
  );
  it('after any sequence of syncs the folder holds exactly the generated and public files, with their bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            generated: fc.dictionary(names, fc.string({ maxLength: 8 }), { maxKeys: 4 }),
            public: fc.dictionary(names, fc.string({ maxLength: 8 }), { maxKeys: 3 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (rounds) => {
          const root = tempDir();
          const outDir = path.join(root, 'out');
          const publicDir = path.join(root, 'public');
          mkdirSync(outDir);
          const output = createInPlaceOutput(outDir, publicDir);
          for (const round of rounds) {
            // Public files win over generated ones (the checks refuse the rest before a sync).
            const generated = new Map(Object.entries(round.generated).filter(([file]) => !(file in round.public)));
            rmSync(publicDir, { recursive: true, force: true });
            for (const [file, text] of Object.entries(round.public)) {
              mkdirSync(path.dirname(path.join(publicDir, file)), { recursive: true });
              writeFileSync(path.join(publicDir, file), `public:${text}`);
            }
            output.sync(generated, new Set(Object.keys(round.public)));
            const expected = new Map([
              ...generated,
              ...Object.entries(round.public).map(([file, text]) => [file, `public:${text}`] as const),
            ]);
            expect((await listFiles(outDir)).sort()).toEqual([...expected.keys()].sort());
            for (const [file, text] of expected) expect(readFileSync(path.join(outDir, file), 'utf8')).toBe(text);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
