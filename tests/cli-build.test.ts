import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBuilt } from '../src/cli/summary.ts';
import { paint } from '../src/cli/terminal.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

describe('ssg build on a fixture site', () => {
  let site: TempSite;
  let result: Awaited<ReturnType<TempSite['run']>>;

  beforeAll(async () => {
    site = await copySite(fixture);
    result = await site.run(['build']);
  });
  afterAll(() => site.dispose());

  it('exits 0 and prints a summary row per page and the total time', () => {
    // The one warning: the fixture's article carries a <script> (the Markdown test below).
    expect(result.stderr).toBe(
      'warning content/news/first-post.md:9: <script> and its content, the href "javascript:alert(1)" of <a> removed: articles may not carry scripts, styles, frames or event handlers (see "HTML in articles" in docs/write-an-article.md).\n',
    );
    expect(result.code).toBe(0);
    for (const route of ['/', '/about', '/news/first-post', '/news/second-post', '/404']) {
      expect(result.stdout).toMatch(new RegExp(`^${route.replace(/\//g, '\\/')}\\s+\\d+(\\.\\d)? (B|KB)`, 'm'));
    }
    expect(result.stdout).toMatch(
      /Built 5 pages \(2 articles\) into dist in \d+(\.\d+)? m?s · Markdown: 2 converted, 0 from cache · peak memory \d+ MB/,
    );
    expect(result.stdout).not.toContain('\x1b[');
  });

  it('writes clean URLs: one PATH.html per route and per article', async () => {
    for (const file of ['index.html', 'about.html', 'news/first-post.html', 'news/second-post.html', '404.html']) {
      expect(existsSync(site.file(`dist/${file}`)), file).toBe(true);
    }
  });

  it('finds articles in sub-folders and leaves drafts out by default', () => {
    expect(existsSync(site.file('dist/news/second-post.html'))).toBe(true);
    expect(existsSync(site.file('dist/news/draft-post.html'))).toBe(false);
  });

  it('renders pages inside the document shell with title, description and canonical URL', async () => {
    const html = await site.read('dist/index.html');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<title>Home</title>');
    expect(html).toContain('<meta name="description" content="The fixture home page">');
    expect(html).toContain('<link rel="canonical" href="https://fixture.example/">');
    expect(html).toContain('<h1>Home</h1>');
    // Newest first.
    expect(html.indexOf('Second post')).toBeLessThan(html.indexOf('First post'));
  });

  it('converts article Markdown without letting scripts or javascript: links through', async () => {
    const html = await site.read('dist/news/first-post.html');
    expect(html).toContain('<h1 id="hello">Hello<a class="heading-anchor"');
    expect(html).toContain('<em>text</em>');
    expect(html).not.toMatch(/<script(?! type="module" src="\/assets\/)/);
    expect(html).not.toContain('javascript:');
  });

  it('prerenders islands and loads scripts only on pages that have them', async () => {
    const home = await site.read('dist/index.html');
    expect(home).toMatch(
      /<ssg-island data-island="counter" data-hydrate="load" data-props="\{&quot;start&quot;:2\}" data-uid="0"><div><span id="[^"]+">2<\/span>/,
    );
    expect(home).toMatch(/<script type="module" src="\/assets\/[\w-]+\.js"><\/script>/);
    expect(await site.read('dist/about.html')).not.toContain('<script');
  });

  it('emits minified, content-hashed scripts and styles, and copies public files as they are', async () => {
    const assets = await readdir(site.file('dist/assets'));
    expect(assets.some((name) => /^index-[A-Z0-9]{8}\.css$/.test(name))).toBe(true);
    expect(assets.filter((name) => /-[A-Z0-9]{8}\.js$/.test(name)).length).toBeGreaterThanOrEqual(3);
    const css = await site.read(`dist/assets/${assets.find((name) => name.endsWith('.css'))}`);
    expect(css).not.toContain('\n  ');
    expect(await site.read('dist/robots.txt')).toBe('User-agent: *\n');
  });

  it('leaves no temporary folders behind', async () => {
    const entries = await readdir(site.dir);
    // The marker beside the folder (dist.ssg-output) is the build's; nothing else may be left.
    expect(entries.filter((name) => name.startsWith('dist.') && name !== 'dist.ssg-output')).toEqual([]);
  });
});

describe('the line that ends a build', () => {
  const line = (pages: number, articles: number) =>
    formatBuilt(
      {
        pages,
        articles,
        outDir: 'dist',
        durationMs: 1200,
        markdown: { converted: articles, cached: 0 },
        unchanged: false,
        peakMb: 80,
      },
      paint(false),
    );

  it('counts one page and one article in the singular, and any other number in the plural', () => {
    expect(line(1, 1)).toBe(
      'Built 1 page (1 article) into dist in 1.20 s · Markdown: 1 converted, 0 from cache · peak memory 80 MB',
    );
    expect(line(2, 0)).toMatch(/^Built 2 pages \(0 articles\) into dist in /);
    expect(line(12, 3)).toMatch(/^Built 12 pages \(3 articles\) into dist in /);
  });
});

describe('ssg build options', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
  });
  afterAll(() => site.dispose());

  it('--out, --base-url and --drafts', async () => {
    const result = await site.run(['build', '--out', 'public-out', '--base-url', 'https://other.example/', '--drafts']);
    expect(result.code).toBe(0);
    expect(await site.read('public-out/about.html')).toContain('href="https://other.example/about"');
    expect(existsSync(site.file('public-out/news/draft-post.html'))).toBe(true);
  });

  it('warns, naming the file, when an article has no date', async () => {
    await site.write('content/news/undated.md', 'No front matter at all.');
    const result = await site.run(['build']);
    await site.remove('content/news/undated.md');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warning .*content\/news\/undated\.md: no date in front matter; using the build time \d{4}-\d\d-\d\dT/,
    );
  });

  it('exits 2 on a usage error', async () => {
    const result = await site.run(['build', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--no-such-flag'");
  });

  it('prints help with the options', async () => {
    const result = await site.run(['build', '--help']);
    expect(result.code).toBe(0);
    for (const option of ['--out <dir>', '--base-url <url>', '--drafts']) expect(result.stdout).toContain(option);
  });
});

describe('the Markdown cache', () => {
  it('converts only new or changed articles, and is safe to delete', async () => {
    const site = await copySite(fixture);
    try {
      const first = await site.run(['build']);
      expect(first.stdout).toContain('Markdown: 2 converted, 0 from cache');
      const page = await site.read('dist/news/first-post.html');

      const second = await site.run(['build']);
      expect(second.stdout).toContain('Markdown: 0 converted, 2 from cache');
      expect(await site.read('dist/news/first-post.html')).toBe(page);

      const original = await site.read('content/news/first-post.md');
      await site.write('content/news/first-post.md', original.replace('# Hello', '# Hello again'));
      const third = await site.run(['build']);
      expect(third.stdout).toContain('Markdown: 1 converted, 1 from cache');
      expect(await site.read('dist/news/first-post.html')).toContain('<h1 id="hello-again">Hello again<a');

      await site.write('content/news/first-post.md', original);
      await site.remove('.cache');
      const fresh = await site.run(['build']);
      expect(fresh.stdout).toContain('Markdown: 2 converted, 0 from cache');
      expect(await site.read('dist/news/first-post.html')).toBe(page);
      expect(existsSync(site.file('dist/.cache'))).toBe(false);
    } finally {
      await site.dispose();
    }
  });

  it('converts many articles in helper processes with the same result as the main thread', async () => {
    const site = await copySite(fixture);
    try {
      const body = (n: number) =>
        `---\ntitle: Post ${n}\ndate: "2024-01-${String((n % 28) + 1).padStart(2, '0')}"\n---\n# Heading ${n}\n\n| a | b |\n|---|---|\n| ${n} | ~~x~~ |\n\n[bad](javascript:alert(${n})) <script>x</script>\n`;
      for (let n = 0; n < 80; n++) await site.write(`content/news/many-${n}.md`, body(n));
      const result = await site.run(['build']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Markdown: 82 converted');
      const html = await site.read('dist/news/many-42.html');
      expect(html).toContain('<h1 id="heading-42">Heading 42<a');
      expect(html).toContain('<td>42</td>');
      expect(html).toContain('<del>x</del>');
      expect(html).not.toContain('javascript:');
      expect(html).not.toMatch(/<script>x/);
      expect((await readdir(site.file('.cache/ssg'))).filter((name) => name.startsWith('markdown-helper'))).toEqual([]);
    } finally {
      await site.dispose();
    }
  });
  it('puts images in as pictures in helper processes too, and names an image problem there by file and line', async () => {
    const site = await copySite(fixture);
    try {
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#06c' } })
        .png()
        .toBuffer();
      await site.write('content/news/pics/chart.png', png);
      const body = (n: number, image: string) =>
        `---\ntitle: Post ${n}\ndate: "2024-02-${String((n % 28) + 1).padStart(2, '0')}"\n---\nText ${n}.\n\n${image}\n`;
      for (let n = 0; n < 70; n++)
        await site.write(
          `content/news/pics/post-${n}.md`,
          body(n, n % 7 === 0 ? '![A chart](./chart.png)' : 'No image.'),
        );
      const result = await site.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      const html = await site.read('dist/news/post-14.html');
      const srcs = [...html.matchAll(/\/assets\/chart-[^" ,]+/g)].map((match) => match[0]);
      expect(html).toMatch(/<picture><source type="image\/avif"/);
      expect(srcs.length).toBeGreaterThan(0);
      for (const src of srcs) expect(existsSync(site.file(`dist${src}`)), src).toBe(true);
      // A missing image in one of them: named with its line, the build fails, nothing is swapped in.
      await site.write('content/news/pics/post-3.md', body(3, '![Gone](./gone.png)'));
      const failed = await site.run(['build']);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('content/news/pics/post-3.md:7');
      expect(failed.stderr).toContain('ImageMissing');
    } finally {
      await site.dispose();
    }
  });
});

describe('ssg build with bad input', () => {
  let site: TempSite;
  let previousIndex: string;

  beforeAll(async () => {
    site = await copySite(fixture);
    expect((await site.run(['build'])).code).toBe(0);
    previousIndex = await site.read('dist/index.html');
  });
  afterAll(() => site.dispose());

  async function expectFailure(change: () => Promise<void>, undo: () => Promise<void>, expected: RegExp[]) {
    await change();
    const result = await site.run(['build']).finally(undo);
    expect(result.code).toBe(1);
    for (const pattern of expected) expect(result.stderr).toMatch(pattern);
    // Expected errors are explained, not dumped.
    expect(result.stderr).not.toMatch(/^\s+at /m);
    // The previous output is whole.
    expect(await site.read('dist/index.html')).toBe(previousIndex);
    expect(existsSync(site.file('dist/news/first-post.html'))).toBe(true);
    expect((await readdir(site.dir)).filter((name) => name.startsWith('dist.') && name !== 'dist.ssg-output')).toEqual(
      [],
    );
    return result;
  }

  it('malformed YAML front matter: file and line', async () => {
    await expectFailure(
      () => site.write('content/news/broken.md', '---\ntitle: Fine\ntags: [one, two\n---\nBody'),
      () => site.remove('content/news/broken.md'),
      [/content\/news\/broken\.md:\d+(:\d+)?: Invalid YAML in front matter/, /hint: Fix the YAML/],
    );
  });

  it('an unclosed front matter block', async () => {
    await expectFailure(
      () => site.write('content/news/open.md', '---\ntitle: Never closed\n\nBody'),
      () => site.remove('content/news/open.md'),
      [
        /content\/news\/open\.md:1: The front matter block opened on line 1 is never closed/,
        /hint: Add a line with three dashes/,
      ],
    );
  });

  it('two articles with one slug', async () => {
    await expectFailure(
      () => site.write('content/news/2024/first-post.md', '---\ndate: "2024-01-01"\n---\nAgain'),
      () => site.remove('content/news/2024/first-post.md'),
      [/content\/news\/first-post\.md: The slug "first-post" is already used by content\/news\/2024\/first-post\.md/],
    );
  });

  it('a file name that is not a safe URL slug', async () => {
    await expectFailure(
      () => site.write('content/news/My Post.md', 'Body'),
      () => site.remove('content/news/My Post.md'),
      [/content\/news\/My Post\.md: "My Post" is not a safe URL slug/, /hint: Rename the file/],
    );
  });

  it('a page component that throws while rendering: page, source line, message', async () => {
    const original = await site.read('site/index.tsx');
    const result = await expectFailure(
      () =>
        site.write(
          'site/index.tsx',
          original.replace('return <h1>About us</h1>;', "throw new Error('boom in about');"),
        ),
      () => site.write('site/index.tsx', original),
      [/site\/index\.tsx:\d+: The page \/about failed to render: boom in about/, /--verbose/],
    );
    expect(result.stderr).toContain('[PageRenderFailed]');
  });

  it('a syntax error in a component names the file and line', async () => {
    const original = await site.read('site/index.tsx');
    await expectFailure(
      () => site.write('site/index.tsx', original.replace('return <h1>About us</h1>;', 'return <h1>About us</h2>;')),
      () => site.write('site/index.tsx', original),
      [/site\/index\.tsx:\d+:\d+: Unexpected closing "h2" tag/],
    );
  });

  it('--verbose adds the stack trace', async () => {
    const original = await site.read('site/index.tsx');
    await site.write('site/index.tsx', original.replace('return <h1>About us</h1>;', "throw new Error('boom');"));
    const result = await site.run(['build', '--verbose']).finally(() => site.write('site/index.tsx', original));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/caused by: Error: boom\n\s+at /);
  });

  it('the previous output survives all of the above and a good build replaces it', async () => {
    const result = await site.run(['build']);
    expect(result.code).toBe(0);
  });
});
