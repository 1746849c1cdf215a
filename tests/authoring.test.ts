// Articles as authors bring them from GitHub, Astro, Hugo and Jekyll: a corpus written for these
// tests (tests/fixtures/authoring, one article per feature) built into the company's own site,
// each feature checked on the built page, its head, the sitemap and the build's messages; then
// the copy button of a code block, clicked in Chromium before any script is on the page.
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';

const CORPUS = path.join(repoRoot, 'tests', 'fixtures', 'authoring', 'news');

let site: TempSite;
let stderr = '';

beforeAll(async () => {
  site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
  cpSync(CORPUS, site.file('content/news'), { recursive: true });
  const result = await site.run(['build']);
  expect(result.code, result.stderr).toBe(0);
  stderr = result.stderr;
}, 180_000);
afterAll(() => site?.dispose());

const page = (slug: string) => readFileSync(site.file(`dist/news/${slug}.html`), 'utf8');
/** The article's body as the page shows it. */
const body = (slug: string) => {
  const found = /<div class="prose">([\s\S]*?)<\/div><\/div><\/div><\/article>/.exec(page(slug))?.[1];
  if (found === undefined) throw new Error(`no article body in ${slug}`);
  return found;
};
/** The byline, reading time and update line under the title. */
const facts = (slug: string) =>
  (/<p class="article-facts"[^>]*>([\s\S]*?)<\/p>/.exec(page(slug))?.[1] ?? '').replace(/<!-- -->|<[^>]+>/g, '');
const meta = (slug: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(page(slug))?.[1];
const jsonLd = (slug: string) =>
  JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page(slug))![1]!) as Record<
    string,
    unknown
  >;

describe('the corpus', () => {
  it('holds at least 30 articles, every one of them built', () => {
    const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const file of files) {
      const slug = path.basename(file) === 'index.md' ? path.basename(path.dirname(file)) : path.basename(file, '.md');
      expect(() => page(slug), file).not.toThrow();
    }
  });
});

describe('GitHub Flavored Markdown, on the page', () => {
  it('tables, strikethrough and task lists', () => {
    expect(body('table')).toContain('<th align="right">Fee</th>');
    expect(body('table')).toContain('<td>Celo</td>');
    expect(body('strikethrough')).toContain('<del>10 %</del> 8 %');
    expect(body('task-list')).toMatch(
      /<li class="task-list-item"><input type="checkbox" checked disabled> Move the keys<\/li>/,
    );
  });

  it('bare URLs, www. addresses and e-mail addresses are links', () => {
    expect(body('autolink-url')).toContain(
      '<a href="https://docs.example.com/staking?lang=en">https://docs.example.com/staking?lang=en</a>',
    );
    expect(body('autolink-url')).toContain('<a href="http://www.example.org">www.example.org</a>');
    expect(body('autolink-email')).toContain('<a href="mailto:ops@example.com">ops@example.com</a>');
  });

  it('footnotes link both ways with ids of the article’s own, and its own "Footnotes" heading keeps its id', () => {
    const html = body('footnotes');
    expect(html).toContain(
      '<a href="#footnotes-fn-1" id="footnotes-fnref-1" data-footnote-ref aria-describedby="footnotes-footnote-label">1</a>',
    );
    expect(html).toContain('<li id="footnotes-fn-why">');
    expect(html).toMatch(/<h2 id="footnotes">Footnotes<a class="heading-anchor"/);
    const ids = [...page('footnotes').matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("GitHub's alerts are titled callouts", () => {
    expect(body('alert-note')).toContain(
      '<div class="markdown-alert markdown-alert-note" role="note">\n<p class="markdown-alert-title">Note</p>',
    );
    expect(body('alert-warning')).toContain('markdown-alert-warning');
    expect(body('alert-warning')).toContain('<p class="markdown-alert-title">Caution</p>');
  });
});

describe('HTML in articles, on the page', () => {
  it('keeps what GitHub keeps', () => {
    expect(body('html-sub-sup')).toContain('H<sub>2</sub>O and the area is 10 m<sup>2</sup>');
    expect(body('html-kbd')).toContain('<kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.<br>Then paste.');
    expect(body('html-details')).toMatch(
      /<details>\s*<summary>Is staking safe\?<\/summary>\s*<p>Your tokens stay in <strong>your<\/strong> wallet.<\/p>\s*<\/details>/,
    );
    expect(body('html-abbr-mark')).toContain(
      '<abbr title="Remote Procedure Call">RPC</abbr> endpoint is <mark>public</mark>, <ins>new</ins> and <del>old</del>',
    );
  });

  it('removes scripts, handlers, javascript: URLs and styles, and says so with the file and line', () => {
    expect(body('html-script')).not.toMatch(/<script|alert/);
    expect(body('html-handler')).not.toMatch(/onclick|onerror|steal/);
    expect(body('html-handler')).toContain('<a href="/news">All news</a>');
    expect(body('html-javascript-url')).not.toMatch(/javascript:|style=/);
    expect(stderr).toContain('content/news/html-script.md:7: <script> and its content removed');
    expect(stderr).toContain(
      'content/news/html-handler.md:5: the onclick attribute of <a>, the onerror attribute of <img> removed',
    );
    expect(stderr).toContain('content/news/html-javascript-url.md:5: the href "javascript:alert(1)" of <a>');
  });
});

describe('code blocks, on the page', () => {
  it('a title is the caption of a figure', () => {
    expect(body('code-title')).toMatch(
      /^<figure class="code-block"><figcaption class="code-title">install\.sh<\/figcaption><pre><code class="hljs language-bash">/,
    );
  });

  it('{2-3} and mark=1 mark those lines, the code itself unchanged', () => {
    const marks = [...body('code-marks').matchAll(/<mark class="code-mark">([\s\S]*?)<\/mark>/g)].map((match) =>
      match[1]!.replace(/<[^>]+>/g, ''),
    );
    expect(marks).toEqual(['const b = 2;\n', 'const c = 3;\n']);
    const code = /<code[^>]*>([\s\S]*?)<\/code>/.exec(body('code-marks'))![1]!.replace(/<[^>]+>/g, '');
    expect(code).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n');
    expect(body('code-mark-word')).toContain('<figcaption class="code-title">keys.js</figcaption>');
    expect([...body('code-mark-word').matchAll(/<mark class="code-mark">/g)]).toHaveLength(1);
  });

  it('every block has a copy button in an island that waits for interaction', () => {
    for (const slug of ['code-copy', 'code-title', 'code-marks']) {
      expect(body(slug)).toContain(
        '<ssg-island data-island="ssg-copy-code" data-hydrate="interaction" data-props="{}"><button type="button" class="code-copy" aria-label="Copy code">Copy</button><span class="code-copy-status" role="status"></span></ssg-island>',
      );
    }
    // A feed reader runs no script: the feed has the code without the button.
    const feed = readFileSync(site.file('dist/news/feed.xml'), 'utf8');
    const item = /<item>(?:(?!<\/item>)[\s\S])*\/news\/code-copy<(?:(?!<\/item>)[\s\S])*<\/item>/.exec(feed)?.[0] ?? '';
    expect(item).toContain('<pre><code>celocli validator:status --all\n</code></pre>');
    expect(item).not.toMatch(/ssg-island|code-copy"/);
  });
});

describe('front matter as other generators write it', () => {
  it('description is the excerpt: the lead, the meta description and the feed summary, with a message', () => {
    expect(page('description')).toContain('<p class="lead">A description in Astro\'s name for it.</p>');
    expect(meta('description', 'description')).toBe('A description in Astro&#39;s name for it.');
    expect(readFileSync(site.file('dist/news/feed.xml'), 'utf8')).toContain(
      '<description>A description in Astro&apos;s name for it.</description>',
    );
    expect(stderr).toContain(
      'content/news/description.md:4: "description" is read as the excerpt (the name this site uses); rename it to excerpt.',
    );
  });

  it('<!--more--> ends the excerpt, as plain text', () => {
    expect(meta('more', 'description')).toBe('The first paragraph, with bold words, is the excerpt.');
    expect(body('more')).toContain('The rest is only on the page.');
  });

  it('author is a byline and the JSON-LD author; a list is joined as a sentence', () => {
    expect(facts('author')).toMatch(/^By Anna Berger · 1 min read$/);
    expect(jsonLd('author').author).toEqual([{ '@type': 'Person', name: 'Anna Berger' }]);
    expect(facts('authors')).toMatch(/^By Anna Berger, Lukas Maier and Eva Huber · /);
    expect(jsonLd('authors').author).toHaveLength(3);
    // Without an author the company is the author.
    expect(jsonLd('table').author).toMatchObject({ '@type': 'Organization' });
  });

  it('updated shows as "Updated …", dateModified, article:modified_time and the sitemap’s lastmod', () => {
    expect(facts('updated')).toMatch(/Updated 15 March 2025$/);
    expect(jsonLd('updated')).toMatchObject({ datePublished: '2025-02-24', dateModified: '2025-03-15' });
    expect(meta('updated', 'article:modified_time')).toBe('2025-03-15');
    const sitemap = readFileSync(site.file('dist/sitemap.xml'), 'utf8');
    expect(sitemap).toMatch(/\/news\/updated<\/loc><lastmod>2025-03-15<\/lastmod>/);
    expect(sitemap).toMatch(/\/news\/table<\/loc><lastmod>2025-02-01<\/lastmod>/);
  });

  it('canonical names the original: the canonical link and og:url, and the page leaves the sitemap', () => {
    expect(page('canonical')).toContain('<link rel="canonical" href="https://blog.example.org/original">');
    expect(meta('canonical', 'og:url')).toBe('https://blog.example.org/original');
    expect(readFileSync(site.file('dist/sitemap.xml'), 'utf8')).not.toContain('/news/canonical<');
    expect(page('table')).toMatch(/<link rel="canonical" href="https:\/\/[^"]+\/news\/table">/);
    // One that names the page itself is the page's own: it stays in the sitemap.
    const own = /<link rel="canonical" href="([^"]+)\/news\/table">/.exec(page('table'))![1]!;
    expect(readFileSync(site.file('dist/sitemap.xml'), 'utf8')).toContain(`<loc>${own}/news/self-canonical</loc>`);
  });

  it('image replaces the drawn card: a 1200×630 JPEG made from it, described by imageAlt', async () => {
    const image = meta('with-image', 'og:image')!;
    expect(image).toMatch(/\/news\/with-image\.jpg$/);
    expect(meta('with-image', 'og:image:alt')).toBe('A teal square');
    expect(jsonLd('with-image').image).toEqual([image]);
    const card = await sharp(site.file('dist/news/with-image.jpg')).metadata();
    expect(card).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    // The others keep their drawn card.
    expect(meta('table', 'og:image')).toMatch(/\/news\/table\.png$/);
  });

  it("other generators' names for fields get a did-you-mean with the line", () => {
    expect(stderr).toContain(
      'content/news/other-generators.md:5: "lastmod" in front matter is not read; did you mean updated?',
    );
    expect(stderr).toContain(
      'content/news/other-generators.md:6: "summary" in front matter is not read; did you mean excerpt?',
    );
    expect(stderr).toContain(
      'content/news/other-generators.md:7: "heroImage" in front matter is not read; did you mean image?',
    );
  });
});

describe('reading time and table of contents', () => {
  it('every article shows its reading time, at 200 words a minute', () => {
    expect(facts('reading-time')).toBe('8 min read'); // 1,600 words
    expect(facts('table')).toBe('1 min read');
  });

  it('a table of contents with three sections or more, sections and their subsections linked', () => {
    const toc = /<nav class="toc" aria-label="Contents"[^>]*>([\s\S]*?)<\/nav>/.exec(page('contents'))?.[1];
    expect(toc).toBe(
      '<h2 class="toc-title">Contents</h2><ol><li><a href="#prepare">Prepare</a><ol><li><a href="#keys">Keys</a></li></ol></li><li><a href="#install">Install</a></li><li><a href="#run">Run</a></li></ol>',
    );
    for (const id of ['prepare', 'keys', 'install', 'run']) expect(body('contents')).toContain(`id="${id}"`);
    expect(page('no-contents')).not.toContain('class="toc"');
  });

  it("no heading takes an id of the page's own (the site's reservedIds); an id written in HTML stays, and links reach it", () => {
    const ids = [...page('reserved-ids').matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(body('reserved-ids')).toMatch(/<h2 id="main-1">Main<a/);
    expect(body('reserved-ids')).toMatch(/<h2 id="site-menu-1">Site menu<a/);
    expect(body('reserved-ids')).toMatch(/<h2 id="user-content-custom">A heading written in HTML<a/);
    expect(body('reserved-ids')).toContain('<a href="#user-content-custom">the HTML heading</a>');
    expect(page('reserved-ids')).toContain(
      '<li><a href="#main-1">Main</a></li><li><a href="#site-menu-1">Site menu</a></li><li><a href="#user-content-custom">A heading written in HTML</a></li>',
    );
  });
});

describe('an image that is not what its name says', () => {
  it('an SVG (which can pull in other files) named .png stops the build, naming the article', async () => {
    const other = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
    try {
      await other.write(
        'content/news/secret.md',
        '---\ntitle: Secret\ndate: "2025-01-01"\ndraft: true\n---\nEMBARGOED\n',
      );
      await other.write(
        'content/news/leak.png',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="1200" height="630"><text x="10" y="50"><xi:include href="secret.md" parse="text"/></text></svg>',
      );
      await other.write(
        'content/news/leak.md',
        '---\ntitle: Leak\ndate: "2025-01-02"\nimage: leak.png\nimageAlt: A chart\n---\nBody\n',
      );
      const result = await other.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[GeneratedFileSourceInvalid]');
      expect(result.stderr).toContain(
        'content/news/leak.md: /news/leak.jpg could not be made: its image content/news/leak.png is in SVG format whatever its name says',
      );
      expect(result.stderr).not.toContain('Unexpected internal error');
    } finally {
      await other.dispose();
    }
  }, 120_000);
});

describe('in Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  beforeAll(async () => {
    server = await serveSite(site.file('dist'));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the copy button fetches its code only when clicked, and the click that came first copies the block', async () => {
    const { page: tab, errors } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    const scripts: string[] = [];
    tab.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await tab.goto(`${server.url}/news/code-title`);
    await tab.waitForLoadState('networkidle');
    const before = [...scripts];
    const island = tab.locator('[data-island="ssg-copy-code"]').first();
    expect(await island.getAttribute('data-hydrated')).toBeNull();
    await tab.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => island.getAttribute('data-hydrated')).toBe('true');
    await expect.poll(() => tab.getByRole('button', { name: 'Copy code' }).textContent()).toBe('Copied');
    expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe('sudo apt-get install -y celo\n');
    expect(await tab.locator('.code-copy-status').textContent()).toBe('Code copied');
    expect(scripts.length).toBeGreaterThan(before.length);
    expect(errors).toEqual([]);
  });

  it('a copy the clipboard refuses selects the code and says how to copy it', async () => {
    const { page: tab, errors } = await openPage(browser);
    await tab.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) },
      });
    });
    await tab.goto(`${server.url}/news/code-copy`);
    const button = tab.getByRole('button', { name: 'Copy code' });
    await button.click();
    await expect.poll(() => button.textContent()).toMatch(/^Press (Ctrl\+C|⌘C)$/);
    // The selection holds the block (Chromium leaves out its last line feed).
    expect(await tab.evaluate(() => window.getSelection()?.toString().trimEnd())).toBe(
      'celocli validator:status --all',
    );
    expect(errors).toEqual([]);
  });
});
