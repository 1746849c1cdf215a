// A site with two content collections (news, and docs with fields of their own) and a data
// collection (team, YAML and JSON): built, its mistakes named by file and line, and watched in dev.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionOf, readDataCollections, resolveCollections } from '../src/content/collections.ts';
import { articleLinkTarget } from '../src/content/article-links.ts';
import { DevProcess } from './helpers/dev-process.ts';
import { createIncrementalBuild } from '../src/pipeline/incremental.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'collections');

describe('a site with collections, built', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
    const result = await site.run(['build']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
  afterAll(() => site?.dispose());

  it("routes each collection's articles where its routes say, one slug in two collections apart", async () => {
    expect(await site.read('dist/news/hello.html')).toContain('Hello from the newsroom');
    expect(await site.read('dist/docs/hello.html')).toContain('Hello from the docs');
    const home = await site.read('dist/index.html');
    expect(home).toContain('<a href="/news/hello">Hello from the newsroom</a>');
    expect(home).not.toContain('/docs/');
  });

  it("hands pages the fields of a collection's schema, typed, and a data collection's entries by file", async () => {
    const docs = await site.read('dist/docs.html');
    const order = ['/docs/intro', '/docs/setup', '/docs/hello'].map((href) => docs.indexOf(`href="${href}"`));
    expect(order.every((at, index) => at > (order[index - 1] ?? -1))).toBe(true);
    expect(await site.read('dist/docs/setup.html')).toMatch(/<p class="section">Basics<!-- -->, part <!-- -->2<\/p>/);
    expect(await site.read('dist/team.html')).toContain(
      '<ul id="team"><li>Alice<!-- -->: <!-- -->Engineer</li><li>Bob<!-- -->: <!-- -->Operator</li></ul>',
    );
  });

  it('turns a link to an article of another collection into its page, and feeds the news alone', async () => {
    expect(await site.read('dist/news/hello.html')).toContain('<a href="/docs/intro">the introduction</a>');
    expect(await site.read('dist/docs/intro.html')).toContain('<a href="setup">setup</a>');
    const feed = await site.read('dist/news/feed.xml');
    expect(feed).toContain('/news/hello</link>');
    expect(feed.match(/<item>/g)).toHaveLength(1);
  });
});

describe('mistakes in collections', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
  });
  afterAll(() => site?.dispose());

  /** Builds with one file changed, expects the error, and puts the file back. */
  async function failsWith(file: string, contents: string | undefined, expected: RegExp): Promise<void> {
    const before = await site.read(file).catch(() => undefined);
    if (contents === undefined) await site.remove(file);
    else await site.write(file, contents);
    try {
      const result = await site.run(['build']);
      expect(result.code).not.toBe(0);
      expect(result.stderr + result.stdout).toMatch(expected);
    } finally {
      if (before === undefined) await site.remove(file);
      else await site.write(file, before);
    }
  }

  it("names the file and line of a field the collection's schema refuses", async () => {
    const setup = await site.read('content/docs/setup.md');
    await failsWith(
      'content/docs/setup.md',
      setup.replace('order: 2', 'order: second'),
      /ArticleSchemaMismatch[\s\S]*content\/docs\/setup\.md:4: order: .*number.*the collection "docs"/,
    );
  });

  it("says, of a strict schema that refuses the fields ssg reads, which fields are ssg's and what to write", async () => {
    const code = await site.read('site/index.tsx');
    await failsWith(
      'site/index.tsx',
      code.replace('section: z.string() })', 'section: z.string() }).strict()'),
      /ArticleSchemaMismatch[\s\S]*content\/docs\/setup\.md:2: \(the front matter\): .*title.*ssg reads itself.*z\.object, not z\.strictObject or \.strict\(\)/,
    );
  });

  it("names a required field an article leaves out at its front matter's first line", async () => {
    const setup = await site.read('content/docs/setup.md');
    await failsWith(
      'content/docs/setup.md',
      setup.replace(/^section: .*\n/m, ''),
      /ArticleSchemaMismatch[\s\S]*content\/docs\/setup\.md:1: section: missing from the front matter, which the schema requires \(.*\) \(the schema of the collection "docs"\)/,
    );
  });

  it('names a misspelt option of defineSite or of a collection at its file and line, with the key meant', async () => {
    const code = await site.read('site/index.tsx');
    const line = (text: string, needle: string) => text.split('\n').findIndex((one) => one.includes(needle)) + 1;
    const misspelt = code.replace('docs: defineCollection({ schema:', 'docs: defineCollection({ shema:');
    await failsWith(
      'site/index.tsx',
      misspelt,
      new RegExp(
        `SiteOptionUnknown[\\s\\S]*site/index\\.tsx:${line(misspelt, 'shema:')}: defineSite's collections\\.docs\\.shema is not an option, so it would be ignored; did you mean schema\\?`,
      ),
    );
    const withRedirect = code.replace('Collections>({', "Collections>({\n  redirect: { '/old': '/' },");
    expect(withRedirect).not.toBe(code);
    await failsWith(
      'site/index.tsx',
      withRedirect,
      new RegExp(
        `site/index\\.tsx:${line(withRedirect, 'redirect:')}: defineSite's redirect is not an option.*did you mean redirects\\?`,
      ),
    );
  });

  it('names a collection declared in a file of its own, not the site entry', async () => {
    const code = await site.read('site/index.tsx');
    await site.write(
      'site/content.ts',
      "import { defineCollection } from 'ssg';\n\nexport const guides = defineCollection({ folder: '../outside' });\n",
    );
    try {
      await failsWith(
        'site/index.tsx',
        code.replace(
          'const collections = {',
          "import { guides } from './content.ts';\nconst collections = {\n  guides,",
        ),
        /CollectionInvalid[\s\S]*site\/content\.ts:3: The folder of the collection "guides" is "\.\.\/outside", which is not a folder below content\//,
      );
    } finally {
      await site.remove('site/content.ts');
    }
  });

  it('names a data entry the schema refuses, and a slug used twice in one collection', async () => {
    await failsWith(
      'content/team/carol.yaml',
      'name: Carol\n',
      /DataSchemaMismatch[\s\S]*content\/team\/carol\.yaml:1: role/,
    );
    await failsWith(
      'content/team/dave.json',
      '{ "name": "Dave", "role": 7 }',
      /DataSchemaMismatch[\s\S]*content\/team\/dave\.json:1: role/,
    );
    await failsWith(
      'content/docs/more/setup.md',
      '---\ntitle: Again\norder: 4\nsection: X\n---\nx\n',
      /ArticleSlugDuplicate[\s\S]*content\/docs\/setup\.md: The slug "setup" is already used by content\/docs\/more\/setup\.md/,
    );
  });

  it('stops on a data file and a data collection of one name, and on a folder outside content/', async () => {
    await failsWith('content/team.yaml', 'x: 1\n', /CollectionInvalid[\s\S]*content\/team\.yaml/);
    const code = await site.read('site/index.tsx');
    await failsWith(
      'site/index.tsx',
      code.replace('news: defineCollection({})', "news: defineCollection({ folder: '../site' })"),
      /CollectionInvalid[\s\S]*site\/index\.tsx:\d+: The folder of the collection "news" is "\.\.\/site", which is not a folder below content\//,
    );
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
  });

  it('warns of a collection whose folder does not exist (a typo, or a new one), and builds it empty', async () => {
    const code = await site.read('site/index.tsx');
    expect(code).toContain('news: defineCollection({})');
    expect(code).toContain("team: defineCollection({ type: 'data',");
    await site.write(
      'site/index.tsx',
      code
        .replace('news: defineCollection({})', "news: defineCollection({ folder: 'newz' })")
        .replace("team: defineCollection({ type: 'data',", "team: defineCollection({ type: 'data', folder: 'crew',"),
    );
    try {
      const result = await site.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      const written = await site.read('site/index.tsx');
      for (const [name, folder] of [
        ['news', 'newz'],
        ['team', 'crew'],
      ]) {
        const line = written.split('\n').findIndex((one) => one.includes(`${name}: defineCollection(`)) + 1;
        expect(result.stderr).toContain(
          `site/index.tsx:${line}: the collection "${name}" has no folder content/${folder}, so it is empty; create the folder, or give the collection the folder it has ("folder").`,
        );
      }
      expect(existsSync(site.file('dist/news/hello.html'))).toBe(false);
      expect(await site.read('dist/team.html')).toContain('<ul id="team"></ul>');
    } finally {
      await site.write('site/index.tsx', code);
    }
    const again = await site.run(['build']);
    expect(again.stderr).not.toContain('has no folder');
  });
});

/** The fixture's site code with a third collection, jobs, and a page listing its titles. */
const withJobs = (code: string) =>
  code
    .replace(
      "  team: defineCollection({ type: 'data'",
      "  jobs: defineCollection({}),\n  team: defineCollection({ type: 'data'",
    )
    .replace(
      "    { path: '/team',",
      "    { path: '/jobs', page: ({ collections }) => <p id=\"jobs\">{collections.jobs.map((job) => job.title).join(', ')}</p>, head: () => ({ title: 'Jobs' }) },\n    { path: '/team',",
    );

describe('collections in dev', () => {
  it('shows a new article of a collection, an edited data entry and a new collection as a build makes them', async () => {
    const site = await copySite(fixture);
    const dev = await DevProcess.start(site.dir);
    try {
      const page = (at: string) => fetch(`${dev.url}${at}`).then((response) => response.text());
      const events = await dev.events();
      await events.settle();

      await site.write(
        'content/docs/faq.md',
        '---\ntitle: Questions\ndate: "2025-01-04"\norder: 0\nsection: Help\n---\nAsk.\n',
      );
      await events.next('reload', undefined, 30_000);
      expect(await page('/docs/faq')).toContain('<p class="section">Help<!-- -->, part <!-- -->0</p>');
      expect(await page('/docs')).toMatch(/href="\/docs\/faq"[\s\S]*href="\/docs\/intro"/);

      await site.write('content/team/bob.json', '{ "name": "Bob", "role": "Lead" }');
      await events.next('reload', undefined, 30_000);
      expect(await page('/team')).toContain('Bob<!-- -->: <!-- -->Lead');

      // A third collection declared while dev runs: its folder is read at once.
      await site.write('content/jobs/engineer.md', '---\ntitle: Engineer\ndate: "2025-02-01"\n---\nJoin us.\n');
      await site.write('site/index.tsx', withJobs(await site.read('site/index.tsx')));
      await events.next('reload', undefined, 30_000);
      expect(await page('/jobs')).toContain('<p id="jobs">Engineer</p>');
      await site.write('content/jobs/operator.md', '---\ntitle: Operator\ndate: "2025-03-01"\n---\nRun nodes.\n');
      // One save of site/index.tsx may reach dev as two changes, and the second rebuild's reload
      // come before this article's: wait for the page itself (bounded), not the next reload.
      const wanted = '<p id="jobs">Operator, Engineer</p>';
      let shown = await page('/jobs');
      for (const deadline = Date.now() + 30_000; !shown.includes(wanted) && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        shown = await page('/jobs');
      }
      expect(shown, dev.stdout).toContain(wanted);
      events.close();

      await dev.stop();
      const built = await site.run(['build']);
      expect(built.code, built.stdout + built.stderr).toBe(0);
      expect(await site.read('dist/jobs.html')).toContain('<p id="jobs">Operator, Engineer</p>');
      expect(await site.read('dist/team.html')).toContain('Bob<!-- -->: <!-- -->Lead');
    } finally {
      await dev.stop();
      await site.dispose();
    }
  });
});

describe('collections in dev, run by run', () => {
  it('shows an article written while the site code is read again, in that run and after', async () => {
    const site = await copySite(fixture);
    const dev = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    const jobs = () => /<p id="jobs">([^<]*)/.exec(readFileSync(site.file('.cache/ssg/dev/jobs.html'), 'utf8'))?.[1];
    try {
      await dev.initial();
      await site.write('content/jobs/engineer.md', '---\ntitle: Engineer\ndate: "2025-02-01"\n---\nJoin us.\n');
      await site.write('site/index.tsx', withJobs(await site.read('site/index.tsx')));
      await dev.update([site.file('content/jobs/engineer.md'), site.file('site/index.tsx')]);
      expect(jobs()).toBe('Engineer');
      // A second event of the same save of the code (the docs' schema is code: every article is
      // read again), with a new article already on disk whose own event comes next.
      await site.write('content/jobs/operator.md', '---\ntitle: Operator\ndate: "2025-03-01"\n---\nRun nodes.\n');
      const again = await dev.update([site.file('site/index.tsx')]);
      expect(jobs()).toBe('Operator, Engineer');
      expect(again.pages).toContain('/jobs');
      await dev.update([site.file('content/jobs/operator.md')]);
      expect(jobs()).toBe('Operator, Engineer');
    } finally {
      await dev.dispose();
      await site.dispose();
    }
  }, 60_000);
});

describe('collection folders and links between them', () => {
  const content = '/srv/site/content';

  it('places every file below content/ in at most one collection, the one whose folder holds it', () => {
    const collections = resolveCollections(
      content,
      { news: {}, docs: { folder: 'guides' }, team: { type: 'data' } },
      's',
    );
    const name = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
    fc.assert(
      fc.property(fc.constantFrom('news', 'guides', 'team', 'other'), fc.array(name, { maxLength: 3 }), (top, rest) => {
        const file = path.join(content, top, ...rest, 'x.md');
        const found = collectionOf(collections, file);
        const expected = { news: 'news', guides: 'docs', team: 'team' }[top as 'news'];
        expect(found?.name).toBe(expected);
      }),
    );
    expect(() => resolveCollections(content, { a: { folder: 'x' }, b: { folder: 'x/' } }, 's')).toThrow(
      /"b" and "a" are one, or one is inside the other/,
    );
    expect(() => resolveCollections(content, { 'a b': {} }, 's')).toThrow(/is not a name/);
    expect(resolveCollections(content, undefined, 's').map((one) => one.name)).toEqual(['news']);
  });

  it("leads a link to another collection's article to /<folder>/<slug>, one in its own to its slug", () => {
    const from = 'content/news/2025/hello.md';
    expect(articleLinkTarget('other.md#part', from)).toBe('other#part');
    expect(articleLinkTarget('../2024/old.mdx', from)).toBe('old');
    expect(articleLinkTarget('../../docs/intro.md', from)).toBe('/docs/intro');
    expect(articleLinkTarget('../../docs/setup/index.mdx?x=1#a', from)).toBe('/docs/setup?x=1#a');
    expect(articleLinkTarget('https://example.org/a.md', from)).toBe('https://example.org/a.md');
    // A link to no file of another folder keeps the slug rule it had before collections.
    expect(articleLinkTarget('../../2024/old.md#faq', from, () => false)).toBe('old#faq');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,10}$/), (slug) => {
        expect(articleLinkTarget(`${slug}.md`, from)).toBe(slug);
        expect(articleLinkTarget(`../../docs/${slug}.md`, from)).toBe(`/docs/${slug}`);
      }),
    );
  });
});

/** The errors a call throws, each as code, file and message. */
async function errorsOf(run: () => unknown): Promise<{ code: string; file?: string; message: string }[]> {
  try {
    await run();
  } catch (error) {
    const all = error instanceof SsgErrorList ? error.errors : [error as SsgError];
    return all.map(({ code, file, message }) => ({ code, file, message }));
  }
  return [];
}

describe('collections declared or filed carelessly', () => {
  const content = '/srv/site/content';

  it('reads a .json entry as JSON, naming the line of a trailing comma YAML would have let through', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ssg-data-json-'));
    try {
      const collections = resolveCollections(path.join(root, 'content'), { nets: { type: 'data' } }, 's');
      const file = path.join(root, 'content', 'nets', 'main.json');
      await mkdir(path.dirname(file), { recursive: true });
      const objects = fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1 });
      await fc.assert(
        fc.asyncProperty(objects, async (value) => {
          const text = JSON.stringify(value, null, 2);
          await writeFile(file, text);
          expect((await readDataCollections(root, collections)).nets![0]!.data).toEqual(JSON.parse(text));
          await writeFile(file, `${text.slice(0, -2)},\n}`);
          expect(await errorsOf(() => readDataCollections(root, collections))).toEqual([
            {
              code: 'DataInvalidJson',
              file: 'content/nets/main.json',
              message: expect.stringMatching(/^Invalid JSON: /),
            },
          ]);
          const error = await readDataCollections(root, collections).catch((caught: SsgError) => caught);
          expect((error as SsgError).line).toBe(text.split('\n').length);
        }),
        { numRuns: 30 },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names a folder that is not text, one inside another and a schema that is not zod, not crashing', async () => {
    const declare = (definition: object) => () => resolveCollections(content, { docs: definition }, 'site/index.tsx');
    const invalid = (message: RegExp) => [
      { code: 'CollectionInvalid', file: 'site/index.tsx', message: expect.stringMatching(message) },
    ];
    expect(await errorsOf(declare({ folder: 42 }))).toEqual(
      invalid(/"docs" is 42, which is not a folder below content\//),
    );
    // A link to another collection's article leads to /<its folder>/<slug>: only one name can say that.
    expect(await errorsOf(declare({ folder: 'guides/docs' }))).toEqual(
      invalid(/"docs" is "guides\/docs", a folder inside another/),
    );
    expect(await errorsOf(declare({ schema: { parse: (value: unknown) => value } }))).toEqual(
      invalid(/"docs" has no safeParse/),
    );
    expect(await errorsOf(declare({ schema: null }))).toEqual(invalid(/"docs" has no safeParse/));
    expect(resolveCollections(content, { docs: { folder: './docs/' } }, 's')[0]!.dir).toBe(path.join(content, 'docs'));
  });

  it('gives each data file one id, sorted, and names two files of one id and a folder that is a file', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ssg-data-ids-'));
    try {
      const collections = resolveCollections(path.join(root, 'content'), { team: { type: 'data' } }, 's');
      // Few names, so two files of one id and ids that sort apart from their file names (`a-b` and `a.yaml`) come often.
      const name = fc.oneof(fc.constantFrom('a', 'a-b', 'a.b', 'b'), fc.stringMatching(/^[a-z][a-z0-9.-]{0,5}$/));
      const files = fc.uniqueArray(
        fc.tuple(fc.option(name, { nil: undefined }), name, fc.constantFrom('yaml', 'yml', 'json')),
        { maxLength: 6, selector: ([folder, base, ext]) => `${folder ?? ''}/${base}.${ext}` },
      );
      await fc.assert(
        fc.asyncProperty(files, async (chosen) => {
          const dir = path.join(root, 'content', 'team');
          await rm(dir, { recursive: true, force: true });
          for (const [folder, base, ext] of chosen) {
            await mkdir(path.join(dir, folder ?? ''), { recursive: true });
            await writeFile(path.join(dir, folder ?? '', `${base}.${ext}`), '{ "x": 1 }');
          }
          const ids = chosen.map(([folder, base]) => (folder ? `${folder}/${base}` : base));
          const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
          const errors = await errorsOf(() => readDataCollections(root, collections));
          expect(errors.map((error) => [error.code, error.message.match(/"(.*)"/)?.[1]])).toEqual(
            [...new Set(twice)]
              .sort()
              .flatMap((id) => twice.filter((one) => one === id).map(() => ['DataEntryDuplicate', id])),
          );
          if (twice.length > 0) return;
          const entries = (await readDataCollections(root, collections)).team!;
          expect(entries.map((entry) => entry.id)).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        }),
        { numRuns: 40 },
      );
      // The last run may have drawn no file and so made no folder (one run in six): start from none.
      await rm(path.join(root, 'content', 'team'), { recursive: true, force: true });
      expect(await readDataCollections(root, collections)).toEqual({ team: [] });
      await writeFile(path.join(root, 'content', 'team'), 'name: Alice\n');
      expect(await errorsOf(() => readDataCollections(root, collections))).toEqual([
        { code: 'CollectionInvalid', file: 'content/team', message: expect.stringMatching(/"team", but it is a file/) },
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
