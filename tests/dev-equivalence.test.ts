// Dev mode and `build` are one pipeline: after any sequence of edits, breaks and mends, every
// file dev serves is byte for byte what a fresh build writes (less the live-reload script), and
// when the build fails, dev fails with the same problems.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { describeProblems, dev, type DevServer } from '../src/dev/dev.ts';
import { listFiles } from '../src/output/output-file.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const STEP_TIMEOUT_MS = 60_000;

/** One edit a person might make; `apply` returns the paths it touched (what the watcher must see). */
interface Step {
  name: string;
  apply(site: TempSite): string[];
}

const article = (title: string, date: string, body: string, extra = '') =>
  `---\ntitle: ${title}\ndate: "${date}"\n${extra}---\n${body}\n`;
const slugs = ['alpha', 'beta', 'gamma', 'first-post'];
const newsFile = (slug: string) => `content/news/${slug}.md`;

function existingArticles(site: TempSite): string[] {
  const dir = site.file('content/news');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `content/news/${name}`);
}

/** Writes a file, text or bytes (making its folder), and says which path changed. */
function put(site: TempSite, file: string, contents: string | Uint8Array): string[] {
  mkdirSync(path.dirname(site.file(file)), { recursive: true });
  writeFileSync(site.file(file), contents);
  return [site.file(file)];
}

/** Removes a file if it is there and says which path changed (none when it was not). */
function remove(site: TempSite, file: string): string[] {
  if (!existsSync(site.file(file))) return [];
  rmSync(site.file(file));
  return [site.file(file)];
}

/**
 * The fixture site plus what a real site has beside its pages: tag pages, a feed and a drawn file
 * per article (a share image's stand-in, cheap to draw), so the equivalence covers them too. The
 * tag pages and a page of picks are handed their articles inside their entries (a group, a list).
 */
function withTagsFeedAndDrawnFiles(source: string): string {
  const tagPage = `function TagPage({ entry }: PageProps) {
  const group = entry.group as TagGroup;
  return <ul>{group.articles.map((item) => <li key={item.slug}><a href={\`/news/\${item.slug}\`}>{item.title}</a><div dangerouslySetInnerHTML={{ __html: item.html }} /></li>)}</ul>;
}

function Picks({ entry }: PageProps) {
  return <ol>{(entry.picks as Article[]).map((item) => <li key={item.slug}>{item.title}: {item.excerpt}</li>)}</ol>;
}

export default defineSite({
  files: ({ articles }) => articles.map((item) => ({ path: \`/share/\${item.slug}.svg\`, key: item.title, render: () => new TextEncoder().encode(\`<svg><text>\${item.title}</text></svg>\`) })),
  feed: () => ({ path: '/feed.xml', title: 'Fixture', description: 'Fixture news', link: (item) => \`/news/\${item.slug}\` }),`;
  return (
    source
      // The fields an article brings besides its body, shown, so that dev must hand them over as build does.
      .replace(
        '<time dateTime={article.date}>{article.date}</time>',
        "<time dateTime={article.date}>{article.date}</time><p>{article.readingTime} min · {article.author} · {article.updated} · {article.canonical} · {article.image?.file} · {article.headings.map((h) => `${h.depth}:${h.id}`).join(',')}</p>",
      )
      .replace(
        "import { defineSite, type Article, type PageProps } from 'ssg';",
        "import { defineSite, groupByTag, type Article, type PageProps, type TagGroup } from 'ssg';",
      )
      .replace('export default defineSite({', tagPage)
      .replace(
        "    { path: '/404',",
        [
          "    { path: '/news/tag/:tag', page: TagPage, head: ({ entry }) => ({ title: (entry.group as TagGroup).name }), entries: ({ articles }) => groupByTag(articles).map((group) => ({ params: { tag: group.slug }, props: { group } })) },",
          // Articles handed in a list: the newest two.
          "    { path: '/picks/:n', page: Picks, head: () => ({ title: 'Picks' }), entries: ({ articles }) => [{ params: { n: '1' }, props: { picks: articles.slice(0, 2) } }] },",
          "    { path: '/404',",
        ].join('\n'),
      )
  );
}

/** Two real images of different sizes: replacing one by the other changes the processed files and the markup. */
const pngs = await Promise.all(
  [
    { width: 40, height: 30, background: '#c00' },
    { width: 64, height: 20, background: '#06c' },
  ].map(({ width, height, background }) =>
    sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer(),
  ),
);
const BUNDLE = 'content/news/pictured/index.md';
const BUNDLE_IMAGE = 'content/news/pictured/chart.png';
/** A public-folder image an article shows as `/pic.png`. */
const PUBLIC_IMAGE = 'site/public/pic.png';
const SHOWN = 'content/news/shown.md';
/** Where the drawn files go: beside the pages, or at the article pages' own paths (refused). */
const DRAWN_AT = /\/(share|news)\/\$\{item\.slug\}\.(svg|html)/;

/** The files of the site's sources (what dev watches), relative to its folder. */
function sourceFiles(dir: string): string[] {
  return ['content', 'site', 'templates'].flatMap((top) =>
    readdirSync(path.join(dir, top), { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(top, name))
      .filter((file) => statSync(path.join(dir, file)).isFile()),
  );
}

/** Puts the site's sources back as `pristine` holds them; the paths that changed. */
function restore(site: TempSite, pristine: string): string[] {
  const now = new Set(sourceFiles(site.dir));
  const wanted = sourceFiles(pristine);
  const touched = [...now].filter((file) => !wanted.includes(file)).map((file) => site.file(file));
  for (const file of touched) rmSync(file);
  for (const file of wanted) {
    const bytes = readFileSync(path.join(pristine, file));
    if (!now.has(file) || !readFileSync(site.file(file)).equals(bytes)) touched.push(...put(site, file, bytes));
  }
  return touched;
}

const pick = <T>(list: readonly T[], index: number): T | undefined =>
  list.length ? list[index % list.length] : undefined;

const indexTsx = (site: TempSite) => readFileSync(site.file('site/index.tsx'), 'utf8');
const ABOUT = /function About\(\) \{[\s\S]*?\n\}/;

const step = fc.oneof(
  fc
    .record({
      slug: fc.constantFrom(...slugs),
      title: fc.constantFrom('One', 'Two & three', 'Four'),
      day: fc.integer({ min: 1, max: 28 }),
      link: fc.option(fc.constantFrom(...slugs), { nil: undefined }),
      // A link to a heading of that article (first-post's "Hello", or the "Section" some articles have).
      fragment: fc.constantFrom('', '#hello', '#section'),
      heading: fc.boolean(),
    })
    .map(({ slug, title, day, link, fragment, heading }): Step => ({
      name: `write article ${slug} "${title}"${link ? ` linking ${link}${fragment}` : ''}${heading ? ' with a Section heading' : ''}`,
      apply: (site) => {
        const body = `${heading ? '## Section\n\n' : ''}${link ? `See [that](/news/${link}${fragment}).` : 'Plain body.'}`;
        return put(site, newsFile(slug), article(title, `2024-07-${String(day).padStart(2, '0')}`, body));
      },
    })),
  fc
    .record({
      slug: fc.constantFrom(...slugs),
      kind: fc.constantFrom('future', 'draft', 'tagged', 'tagged draft'),
      tags: fc.subarray(['Staking', 'Rewards & Fees', 'Zürich'], { minLength: 1 }),
    })
    .map(({ slug, kind, tags }): Step => ({
      name: `write ${kind} article ${slug}${kind.startsWith('tagged') ? ` [${tags.join(', ')}]` : ''}`,
      apply: (site) => {
        const front = [
          kind.endsWith('draft') ? 'draft: true\n' : '',
          kind.startsWith('tagged') ? `tags: ${JSON.stringify(tags)}\n` : '',
        ].join('');
        const date = kind === 'future' ? '2099-01-01' : '2024-06-15';
        return put(site, newsFile(slug), article(`${kind} ${slug}`, date, `A ${kind} post.`, front));
      },
    })),
  fc
    .record({
      index: fc.nat(),
      what: fc.constantFrom('title', 'body', 'excerpt'),
      word: fc.constantFrom('Red', 'Green', 'Blue'),
    })
    .map(({ index, what, word }): Step => ({
      name: `edit the ${what} of article #${index} (${word}), keeping the rest`,
      apply: (site) => {
        const file = pick(existingArticles(site), index);
        if (!file) return [];
        const text = readFileSync(site.file(file), 'utf8');
        const edited =
          what === 'title'
            ? text.replace(/^title: .*$/m, `title: ${word} title`)
            : what === 'excerpt'
              ? /^excerpt: /m.test(text)
                ? text.replace(/^excerpt: .*$/m, `excerpt: ${word} excerpt.`)
                : text.replace(/^title: /m, `excerpt: ${word} excerpt.\ntitle: `)
              : `${text.trimEnd()}\n\n${word} words.\n`;
        return edited === text ? [] : put(site, file, edited);
      },
    })),
  fc.nat().map((index): Step => ({
    name: `delete article #${index}`,
    apply: (site) => {
      const file = pick(existingArticles(site), index);
      return file ? remove(site, file) : [];
    },
  })),
  fc.tuple(fc.nat(), fc.constantFrom(...slugs, '2024/beta')).map(([index, to]): Step => ({
    name: `rename article #${index} to ${to}`,
    apply: (site) => {
      const file = pick(existingArticles(site), index);
      if (!file || existsSync(site.file(newsFile(to)))) return [];
      mkdirSync(path.dirname(site.file(newsFile(to))), { recursive: true });
      renameSync(site.file(file), site.file(newsFile(to)));
      return [site.file(file), site.file(newsFile(to))];
    },
  })),
  fc.nat().map((index): Step => ({
    name: `break the front matter of article #${index}`,
    apply: (site) => {
      const file = pick(existingArticles(site), index);
      return file ? put(site, file, '---\ntitle: [unclosed\n') : [];
    },
  })),
  fc
    .record({
      slug: fc.constantFrom(...slugs),
      sections: fc.integer({ min: 0, max: 4 }),
      author: fc.boolean(),
      image: fc.boolean(),
      marks: fc.constantFrom('', ' {2}', ' mark=1-2'),
    })
    .map(({ slug, sections, author, image, marks }): Step => ({
      name: `write a feature-rich article ${slug} (${sections} sections${author ? ', author' : ''}${image ? ', image' : ''}${marks ? `, marks${marks}` : ''})`,
      apply: (site) => {
        const front = [
          author ? 'author: [Ada, Grace]\n' : '',
          'updated: "2024-08-01"\ncanonical: https://elsewhere.example/post\n',
          image ? 'image: /pic.png\nimageAlt: A picture\n' : '',
        ].join('');
        const body = [
          'Text[^1] with https://example.com and <kbd>Ctrl</kbd>.\n\n[^1]: A note.\n\n> [!TIP]\n> Tip.\n',
          ...Array.from({ length: sections }, (_, n) => `## Part ${n + 1}\n\n### Detail\n\nWords here.\n`),
          `\`\`\`ts title="a.ts"${marks}\nconst a = 1;\nconst b = 2;\n\`\`\`\n`,
        ].join('\n');
        return [
          ...(image ? put(site, PUBLIC_IMAGE, pngs[0]!) : []),
          ...put(site, newsFile(slug), article(`Rich ${slug}`, '2024-07-20', body, front)),
        ];
      },
    })),
  fc
    .constantFrom(
      {
        name: 'a duplicate slug in a sub-folder',
        file: 'content/news/2024/first-post.md',
        text: article('Twin', '2024-02-02', 'Twin.'),
      },
      { name: 'site.yaml: another base URL', file: 'content/site.yaml', text: 'baseUrl: https://other.example\n' },
      { name: 'site.yaml: the base URL back', file: 'content/site.yaml', text: 'baseUrl: https://fixture.example\n' },
      { name: 'site.yaml: broken YAML', file: 'content/site.yaml', text: 'baseUrl: [https://fixture.example\n' },
      {
        name: 'site.yaml: a base URL with a path',
        file: 'content/site.yaml',
        text: 'baseUrl: https://fixture.example/sub\n',
      },
      { name: 'a data file', file: 'content/extra.yaml', text: 'items: [1, 2]\n' },
      { name: 'a public file in a new folder', file: 'site/public/docs/guide.txt', text: 'guide' },
      { name: 'a public file at a page path', file: 'site/public/about.html', text: '<p>clash</p>' },
      { name: 'a public robots.txt', file: 'site/public/robots.txt', text: 'User-agent: *\n' },
      { name: 'a style edit', file: 'site/styles/index.css', text: 'body { color: rebeccapurple; }\n' },
      { name: 'another style edit', file: 'site/styles/index.css', text: 'body { color: teal; }\n' },
      {
        name: 'a template comment',
        file: 'templates/document.html',
        text: '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<!-- edited -->\n<!--ssg:head-->\n</head>\n<body>\n<!--ssg:body-->\n</body>\n</html>\n',
      },
      {
        name: 'a template without its body marker',
        file: 'templates/document.html',
        text: '<!doctype html>\n<html><head><!--ssg:head--></head><body></body></html>\n',
      },
    )
    .map(({ name, file, text }): Step => ({ name, apply: (site) => put(site, file, text) })),
  fc
    .constantFrom(
      'site/public/docs',
      'site/public/about.html',
      'site/public/robots.txt',
      'content/extra.yaml',
      'content/news/2024',
    )
    .map((file): Step => ({
      name: `remove ${file}`,
      apply: (site) => {
        const target = site.file(file);
        if (!existsSync(target)) return [];
        const inside =
          existsSync(target) && !file.includes('.')
            ? readdirSync(target, { recursive: true, encoding: 'utf8' }).map((name) => path.join(target, name))
            : [];
        rmSync(target, { recursive: true, force: true });
        return [target, ...inside];
      },
    })),
  // A page bundle: its article shows an image beside it; the image replaced, removed, or shown without alt text.
  fc.record({ image: fc.constantFrom(0, 1), alt: fc.constantFrom('A chart', '') }).map(({ image, alt }): Step => ({
    name: `a page bundle showing image ${image}${alt ? '' : ' without alt text'}`,
    apply: (site) => [
      ...put(site, BUNDLE_IMAGE, pngs[image]!),
      ...put(site, BUNDLE, article('Pictured', '2024-05-05', `Intro.\n\n![${alt}](./chart.png)`)),
    ],
  })),
  fc.constantFrom(0, 1).map((image): Step => ({
    name: `the bundle's image replaced by image ${image}`,
    apply: (site) => (existsSync(site.file(BUNDLE)) ? put(site, BUNDLE_IMAGE, pngs[image]!) : []),
  })),
  fc.constant<Step>({ name: "the bundle's image removed", apply: (site) => remove(site, BUNDLE_IMAGE) }),
  // A public image an article shows: the article written, the image replaced or removed.
  fc.constant<Step>({
    name: 'an article showing the public image',
    apply: (site) => put(site, SHOWN, article('Shown', '2024-05-06', 'Intro.\n\n![A picture](/pic.png)')),
  }),
  fc.constantFrom(0, 1).map((image): Step => ({
    name: `the public image replaced by image ${image}`,
    apply: (site) => put(site, PUBLIC_IMAGE, pngs[image]!),
  })),
  fc.constant<Step>({ name: 'the public image removed', apply: (site) => remove(site, PUBLIC_IMAGE) }),
  fc
    .constantFrom(
      { name: 'files(): drawn at the article pages', path: '/news/${item.slug}.html' },
      { name: 'files(): drawn beside them again', path: '/share/${item.slug}.svg' },
    )
    .map(({ name, path: drawnAt }): Step => ({
      name,
      apply: (site) => put(site, 'site/index.tsx', indexTsx(site).replace(DRAWN_AT, drawnAt)),
    })),
  fc
    .constantFrom(
      { name: 'About: new text', body: 'function About() {\n  return <h1>About them</h1>;\n}' },
      { name: 'About: a syntax error', body: 'function About() {\n  return <h1>About them</h1;\n}' },
      { name: 'About: throws', body: "function About() {\n  throw new Error('about broke');\n}" },
      { name: 'About: links nowhere', body: 'function About() {\n  return <a href="/nowhere">x</a>;\n}' },
      { name: 'About: as it was', body: 'function About() {\n  return <h1>About us</h1>;\n}' },
    )
    .map(({ name, body }): Step => ({
      name,
      apply: (site) => put(site, 'site/index.tsx', indexTsx(site).replace(ABOUT, body)),
    })),
);

/** The files of a folder and their bytes, less what only a deploy uses (precompressed copies, the marker). */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = (await listFiles(dir)).filter((file) => !/\.(br|gz)$/.test(file)).sort();
  return new Map(files.map((file) => [file, readFileSync(path.join(dir, file)).toString('base64')]));
}

const problemsOf = (error: unknown) =>
  describeProblems(error).map(({ code, where, message }) => ({ code, where, message: message.split('\n')[0] }));

describe('dev mode and build are one pipeline', () => {
  let site: TempSite;
  let outRoot: string;
  /** The sources as at the start: each run of random edits starts from them, not from the last run's breakage. */
  let pristine: string;
  let server: DevServer;
  const rebuilds: Array<{ paths: string[]; error?: unknown }> = [];

  beforeAll(async () => {
    site = await copySite(fixture);
    writeFileSync(site.file('site/index.tsx'), withTagsFeedAndDrawnFiles(indexTsx(site)));
    outRoot = await mkdtemp(path.join(tmpdir(), 'ssg-equivalence-'));
    pristine = path.join(outRoot, 'pristine');
    for (const top of ['content', 'site', 'templates'])
      cpSync(site.file(top), path.join(pristine, top), { recursive: true });
    server = await dev({
      root: site.dir,
      port: 0,
      strictPort: false,
      log: () => {},
      warn: () => {},
      fail: () => {},
      onRebuild: (rebuild) => rebuilds.push(rebuild),
    });
  });
  afterAll(async () => {
    await server?.close();
    await site?.dispose();
    await rm(outRoot, { recursive: true, force: true });
  });

  /** Waits until dev has rebuilt with every touched path and nothing more is queued; its last result. */
  async function settled(from: number, touched: string[]): Promise<{ error?: unknown } | undefined> {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const seen = new Set(rebuilds.slice(from).flatMap((rebuild) => rebuild.paths));
      if (touched.every((file) => seen.has(file))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.idle();
    return rebuilds.at(-1);
  }

  async function freshBuild(): Promise<{ out: string; error?: unknown }> {
    const out = await mkdtemp(path.join(outRoot, 'out-'));
    // Without the pages of the last build: a page it keeps wrongly would hide one dev keeps wrongly.
    rmSync(site.file('.cache/ssg/pages.bin'), { force: true });
    try {
      await build({ root: site.dir, outDir: out, warn: () => {} });
      return { out };
    } catch (error) {
      return { out, error };
    }
  }

  /** Dev's file as served: the live-reload script taken out again. */
  async function served(file: string): Promise<string> {
    const url = `${server.url}/${file === 'index.html' ? '' : file.replace(/\.html$/, '')}`;
    const html = await (await fetch(url)).text();
    return html.replace(/<script type="module" src="\/__ssg\/client\.js"[^>]*><\/script>\n?/, '');
  }

  /** The processed images kept in the cache. */
  const imageEntries = () =>
    existsSync(site.file('.cache/ssg/images')) ? readdirSync(site.file('.cache/ssg/images')).sort() : [];

  async function expectSame(trail: string[]): Promise<void> {
    const from = rebuilds.length;
    const keptByDev = imageEntries();
    const result = await freshBuild();
    const last = rebuilds[from - 1];
    const context = `after: ${trail.join(' → ')}`;
    if (result.error) {
      expect(
        last?.error,
        `${context}: build failed, dev did not (${JSON.stringify(problemsOf(result.error))})`,
      ).toBeDefined();
      expect(problemsOf(last!.error), context).toEqual(problemsOf(result.error));
      return;
    }
    expect(last?.error === undefined ? undefined : problemsOf(last.error), context).toBeUndefined();
    // Dev pruned its image cache as the build prunes it: what the site shows, nothing else.
    expect(keptByDev, `${context}: processed images kept`).toEqual(imageEntries());
    const [built, fromDev] = await Promise.all([snapshot(result.out), snapshot(server.outDir)]);
    expect([...fromDev.keys()], context).toEqual([...built.keys()]);
    for (const [file, bytes] of built) expect(fromDev.get(file), `${context}: ${file}`).toBe(bytes);
    for (const file of built.keys()) {
      if (
        !file.endsWith('.html') ||
        /(^|\/)404\.html$/.test(file) ||
        existsSync(path.join(site.dir, 'site/public', file))
      )
        continue;
      expect(await served(file), `${context}: served ${file}`).toBe(readFileSync(path.join(result.out, file), 'utf8'));
    }
  }

  it(
    'the fixture has its tag pages, feed and drawn files, and holds back drafts and future posts',
    async () => {
      const from = rebuilds.length;
      const touched = [
        ...put(site, newsFile('gamma'), article('Later', '2099-01-01', 'Not yet.')),
        ...put(site, newsFile('beta'), article('Tagged', '2024-06-01', 'Tagged.', 'tags: [Staking]\n')),
      ];
      await settled(from, touched);
      await expectSame(['a future post and a tagged post']);
      const files = await snapshot(server.outDir);
      expect(files.has('share/beta.svg') && files.has('news/tag/staking.html') && files.has('feed.xml')).toBe(true);
      expect(files.has('news/gamma.html') || files.has('share/gamma.svg')).toBe(false);
      expect(files.has('news/draft-post.html')).toBe(false);
    },
    STEP_TIMEOUT_MS * 2,
  );

  it(
    'pages handed articles inside their entries (a tag group, a list) show edits of those articles',
    async () => {
      const edits: Array<[string, string]> = [
        ['a tagged post', article('Tagged', '2024-06-01', 'Tagged.', 'tags: [Staking]\nexcerpt: First.\n')],
        ['its title, tags kept', article('Retitled', '2024-06-01', 'Tagged.', 'tags: [Staking]\nexcerpt: First.\n')],
        [
          'its body, tags kept',
          article('Retitled', '2024-06-01', 'Other words.', 'tags: [Staking]\nexcerpt: First.\n'),
        ],
        ['its excerpt', article('Retitled', '2024-06-01', 'Other words.', 'tags: [Staking]\nexcerpt: Second.\n')],
      ];
      const trail: string[] = [];
      for (const [name, text] of edits) {
        const from = rebuilds.length;
        trail.push(name);
        await settled(from, put(site, newsFile('beta'), text));
        await expectSame(trail);
      }
      const tagPage = readFileSync(path.join(server.outDir, 'news/tag/staking.html'), 'utf8');
      expect(tagPage).toContain('Retitled');
      expect(tagPage).toContain('Other words.');
      expect(readFileSync(path.join(server.outDir, 'picks/1.html'), 'utf8')).toContain('Second.');
    },
    STEP_TIMEOUT_MS * 4,
  );

  it('serves what a fresh build writes, and fails as it fails, after random edits', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        runs++;
        const trail: string[] = [];
        const from = rebuilds.length;
        const reset = restore(site, pristine);
        if (reset.length > 0) await settled(from, reset);
        for (const next of steps) {
          const from = rebuilds.length;
          const touched = next.apply(site);
          trail.push(next.name);
          if (touched.length === 0) continue;
          await settled(from, touched);
          await expectSame(trail);
        }
      }),
      { numRuns: Number(process.env.EQ_RUNS ?? 6), endOnFailure: true },
    );
    expect(runs).toBe(Number(process.env.EQ_RUNS ?? 6));
  }, 240_000);
});
