// Articles written the way Jekyll, Hugo, Eleventy and Astro users write them: a corpus written for
// these tests (tests/fixtures/migrated: news/ builds, refused/ and links/ each fail the build),
// built into the company's own site. Every case ends as the author meant it, or as a named error
// or a warning naming the file and line and saying what to do; never as something else.
// Files whose bytes matter (line endings, a byte-order mark, encodings, an image) are written here.
import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type CliResult, type TempSite } from './helpers/project.ts';

const CORPUS = path.join(repoRoot, 'tests', 'fixtures', 'migrated');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let site: TempSite;
let built: CliResult;
let refused: CliResult;
let linked: CliResult;
let distBefore: string[];

const copyInto = (folder: string) => cpSync(path.join(CORPUS, folder), site.file('content/news'), { recursive: true });
const removeFrom = (folder: string) => {
  for (const name of readdirSync(path.join(CORPUS, folder))) rmSync(site.file(`content/news/${name}`));
};

beforeAll(async () => {
  site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
  copyInto('news');
  const body = (title: string, eol: string) =>
    [
      '---',
      `title: ${title}`,
      'date: 2024-04-01',
      'excerpt: Saved on another system.',
      '---',
      'First line.',
      'Second line.',
      '',
    ].join(eol);
  await site.write('content/news/crlf-endings.md', body('Windows line endings', '\r\n'));
  await site.write('content/news/cr-endings.md', body('Old Mac line endings', '\r'));
  await site.write('content/news/bom-first.md', `\ufeff${body('A byte-order mark first', '\n')}`);
  await site.write('content/news/empty.md', '');
  await site.write('content/news/blank.md', ' \n\n\t\n');
  await site.write(
    'content/news/control-characters.md',
    '---\ntitle: "Ctl\\x01 and \\b"\nexcerpt: "tab\\bx"\ndate: 2024-04-02\n---\nA \u0001 byte in the body.\n',
  );
  built = await site.run(['build']);
  distBefore = readdirSync(site.file('dist'), { recursive: true, encoding: 'utf8' }).sort();

  copyInto('refused');
  await site.write('content/news/image-saved-as-md.md', PNG);
  await site.write(
    'content/news/windows-1252.md',
    Buffer.concat([Buffer.from('---\ntitle: Caf'), Buffer.from([0xe9]), Buffer.from(' \x93quoted\x94\n---\nBody.\n')]),
  );
  await site.write(
    'content/news/long-excerpt.md',
    `---\ntitle: Long\ndate: 2024-04-03\n---\n${'Words and more words. '.repeat(600)}\n\n<!--more-->\n\nRest.\n`,
  );
  await site.write(
    'content/news/utf-16.md',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\ntitle: UTF-16\n---\n', 'utf16le')]),
  );
  refused = await site.run(['build']);
  removeFrom('refused');
  for (const name of ['image-saved-as-md.md', 'windows-1252.md', 'utf-16.md', 'long-excerpt.md'])
    rmSync(site.file(`content/news/${name}`));

  copyInto('links');
  linked = await site.run(['build']);
}, 300_000);
afterAll(() => site?.dispose());

const page = (slug: string) => readFileSync(site.file(`dist/news/${slug}.html`), 'utf8');
const h1 = (slug: string) => /<h1>([\s\S]*?)<\/h1>/.exec(page(slug))?.[1];
const lead = (slug: string) => /<p class="lead">([\s\S]*?)<\/p>/.exec(page(slug))?.[1];
const body = (slug: string) =>
  /<div class="prose">([\s\S]*?)<\/div><\/div><\/div><\/article>/.exec(page(slug))?.[1] ?? '';
const dateTime = (slug: string) => /<time dateTime="([^"]+)">([^<]*)<\/time>/i.exec(page(slug))!.slice(1);
const meta = (slug: string, name: string) =>
  new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)">`).exec(page(slug))?.[1];
const tagLinks = (slug: string) => [...page(slug).matchAll(/href="\/news\/tags\/([^"]+)"/g)].map((match) => match[1]);
/** The build's messages about one file, as the terminal shows them. */
const about = (result: CliResult, file: string) => result.stderr.split('\n').filter((line) => line.includes(file));

describe('what other generators accept is read as the author meant it', () => {
  it('builds, with every article of the corpus published', () => {
    expect(built.code, built.stderr).toBe(0);
    for (const name of readdirSync(path.join(CORPUS, 'news'))) {
      const slug = name.replace(/\.(md|markdown)$/, '');
      expect(existsSync(site.file(`dist/news/${slug}.html`)), name).toBe(true);
    }
  });

  it('TOML (+++) and JSON front matter, as Hugo writes them', () => {
    expect(h1('toml-front-matter')).toBe('Written for Hugo, in TOML');
    expect(dateTime('toml-front-matter')).toEqual(['2024-03-05T10:00:00.000+01:00', '5 March 2024']);
    expect(tagLinks('toml-front-matter')).toEqual(['hugo', 'migration']);
    expect(lead('toml-front-matter')).toBe('A post moved over from a Hugo site.');
    expect(body('toml-front-matter')).toBe(
      '<p>The body of an article whose front matter is TOML, as Hugo writes it.</p>',
    );
    expect(h1('json-front-matter')).toBe('Written for Hugo, in JSON');
    expect(tagLinks('json-front-matter')).toEqual(['json']);
    expect(body('json-front-matter')).toBe('<p>The body of an article whose front matter is a JSON object.</p>');
  });

  it('a blank line before the front matter, a byte-order mark, and LF, CRLF or CR line endings', () => {
    expect(h1('blank-line-first')).toBe('A blank line before the front matter');
    expect(body('blank-line-first')).toBe('<p>The body after a front matter that starts on the second line.</p>');
    for (const [slug, title] of [
      ['crlf-endings', 'Windows line endings'],
      ['cr-endings', 'Old Mac line endings'],
      ['bom-first', 'A byte-order mark first'],
    ]) {
      expect(h1(slug!), slug).toBe(title);
      expect(lead(slug!), slug).toBe('Saved on another system.');
      expect(body(slug!), slug).toBe('<p>First line.\nSecond line.</p>');
      expect(about(built, `${slug}.md`), slug).toEqual([]);
    }
  });

  it('a line of dashes inside a block scalar does not end the front matter', () => {
    // Front matter's excerpt is a line of text: the dashes are no Markdown rule in it.
    expect(lead('block-scalar-dashes')).toBe('Before the dashes. --- After the dashes.');
    expect(body('block-scalar-dashes')).toBe('<p>The body starts here, after the real closing line.</p>');
  });

  it('values as written: a year as a title, version tags with their trailing zero', () => {
    expect(h1('numeric-title')).toBe('2024');
    expect(tagLinks('version-tags')).toEqual(['v1-10', '1-10']);
    expect(page('version-tags')).toMatch(/>1\.10<\/a>/);
    expect(page('version-tags')).toMatch(/>v1\.10<\/a>/);
  });

  it('tags written as text: no tags, and a warning with the list to write', () => {
    expect(tagLinks('tags-as-text')).toEqual([]);
    expect(about(built, 'tags-as-text.md').join('\n')).toContain(
      'content/news/tags-as-text.md:4: tags is "staking", not a list, so the article gets no tags; write it as a list: tags: [staking]',
    );
  });

  it('dates as Jekyll and RFC 3339 write them, shown on the day the author wrote', () => {
    expect(dateTime('jekyll-date')).toEqual(['2023-04-05T10:00:00.000+02:00', '5 April 2023']);
    // 23:30 at UTC-5 is the 7th in UTC: the page still says the 6th.
    expect(dateTime('rfc3339-date')).toEqual(['2023-04-06T23:30:00.000-05:00', '6 April 2023']);
    expect(meta('rfc3339-date', 'article:published_time')).toBe('2023-04-07T04:30:00.000Z');
  });

  it('.markdown files are articles', () => {
    expect(h1('markdown-extension')).toBe('Saved with the .markdown extension');
  });

  it('excerpts render their inline Markdown on the list, the page and in the feed; the meta description is plain text', () => {
    const html = 'A <strong>bold</strong> claim with <code>code</code>, a link and a<br>break.';
    expect(lead('excerpt-markup')).toBe(html);
    expect(meta('excerpt-markup', 'description')).toBe('A bold claim with code, a link and a break.');
    const list = readdirSync(site.file('dist/news'), { recursive: true, encoding: 'utf8' })
      .filter((name) => /^(index|page\/\d+)\.html$/.test(name) || name === 'index.html')
      .map((name) => readFileSync(site.file(`dist/news/${name}`), 'utf8'))
      .concat(readFileSync(site.file('dist/news.html'), 'utf8'))
      .join('\n');
    expect(list).toContain(`<p>${html}</p>`);
    const feed = readFileSync(site.file('dist/news/feed.xml'), 'utf8');
    expect(feed).toContain(
      '<description>A &lt;strong&gt;bold&lt;/strong&gt; claim with &lt;code&gt;code&lt;/code&gt;, a link and a&lt;br&gt;break.</description>',
    );
    // Cut at <!--more-->: a <br> is a break, not two words run together.
    expect(lead('more-excerpt')).toBe('Text with a<br>break and <em>emphasis</em>.');
    expect(meta('more-excerpt', 'description')).toBe('Text with a break and emphasis.');
    // HTML keeps its text (its tags are never built into elements); a script goes with its text.
    expect(lead('excerpt-html')).toBe('Hello world after, 1 &lt; 2 &amp; 3 > 2');
    expect(meta('excerpt-html', 'description')).toBe('Hello world after, 1 &lt; 2 &amp; 3 &gt; 2');
    // Front matter's excerpt is a line of text, not a list; blocks of a body's excerpt are spaced.
    expect(lead('year-excerpt')).toBe('1986. A great year');
    expect(lead('list-more')).toBe('First item Second item');
  });

  it('typed TOML values as text, a warning where a number does not read as written; YAML merge keys applied', () => {
    expect(h1('toml-numbers')).toBe('2024');
    expect(tagLinks('toml-numbers')).toEqual(['1-1', 'v1-10']);
    expect(about(built, 'toml-numbers.md').join('\n')).toContain(
      'content/news/toml-numbers.md:4: tags holds the number 1.1, shown as "1.1"; write it in quotes',
    );
    expect(tagLinks('merge-key')).toEqual(['merged']);
  });

  it('control characters never make the feed unreadable XML', async () => {
    const { XMLValidator } = await import('fast-xml-parser');
    const feed = readFileSync(site.file('dist/news/feed.xml'), 'utf8');
    expect(XMLValidator.validate(feed)).toBe(true);
    expect(feed).toContain('<title>Ctl and </title>');
  });

  it("a link with a trailing slash to a page: published, with a warning naming the page's address", () => {
    expect(body('trailing-slash-link')).toContain('href="/news/toml-front-matter/"');
    expect(about(built, 'trailing-slash-link.md').join('\n')).toContain(
      "links to /news/toml-front-matter/; write /news/toml-front-matter, the page's own address",
    );
  });

  it("slug: the file's own is accepted; empty files are skipped with a warning", () => {
    expect(h1('same-slug-field')).toBe('A slug that is the file&#x27;s own');
    for (const name of ['empty.md', 'blank.md']) {
      expect(existsSync(site.file(`dist/news/${name.replace('.md', '.html')}`)), name).toBe(false);
      expect(about(built, name), name).toEqual(
        [`content/news/${name}: the file is empty; skipped. Write the article in it, or delete it.`].map((line) =>
          expect.stringContaining(line),
        ),
      );
    }
  });
});

describe('what cannot be read is refused by name, all at once, the previous output untouched', () => {
  it('fails with exit 1 and no internal error; dist/ is as the last good build left it', () => {
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).not.toContain('Unexpected internal error');
    expect(readdirSync(site.file('dist'), { recursive: true, encoding: 'utf8' }).sort()).toEqual(distBefore);
  });

  const problem = (code: string, where: string) => {
    const lines = refused.stderr.split('\n');
    const at = lines.findIndex(
      (line, index) => line.includes(`[${code}]`) && lines[index + 1]?.trim().startsWith(where),
    );
    expect(at, `${code} at ${where} in:\n${refused.stderr}`).toBeGreaterThanOrEqual(0);
    return lines.slice(at, at + 3).join('\n');
  };

  it('slug other than the file name', () => {
    expect(problem('FrontMatterSlugNotRead', 'content/news/slug-field.md:4:')).toMatch(
      /slug "custom-url" is not read: the file name gives the slug \("slug-field"\)[\s\S]*hint: To publish it as custom-url, rename the file to "custom-url.md"/,
    );
  });

  it('a file name that is no slug names the slug it would have', () => {
    expect(problem('ArticleSlugInvalid', 'content/news/My Post_Draft.md:')).toMatch(
      /it would be "my-post-draft"[\s\S]*hint: Rename the file to "my-post-draft.md"/,
    );
  });

  it('invalid TOML and JSON, with the line', () => {
    expect(problem('FrontMatterInvalidToml', 'content/news/invalid-toml.md:4')).toContain(
      'Invalid TOML in front matter',
    );
    expect(problem('FrontMatterInvalidJson', 'content/news/invalid-json.md:')).toContain(
      'Invalid JSON in front matter',
    );
  });

  it('a key with which another generator holds an article back, and an excerpt longer than a summary', () => {
    expect(problem('FrontMatterKeyNotRead', 'content/news/published-false.md:4:')).toMatch(
      /published: false is not read[\s\S]*hint: Write draft: true/,
    );
    expect(problem('ExcerptTooLong', 'content/news/long-excerpt.md:5:')).toMatch(
      /the body before <!--more-->\) is 13202 characters; at most 4000 are read[\s\S]*hint: Move the <!--more--> line up/,
    );
  });

  it('a YAML alias bomb', () => {
    expect(problem('FrontMatterAliasesExcessive', 'content/news/alias-bomb.md:1')).toContain('billion laughs');
  });

  it('an image saved as .md, a Windows-1252 file, a UTF-16 file', () => {
    expect(problem('ArticleNotText', 'content/news/image-saved-as-md.md:')).toContain('it is a PNG image');
    expect(problem('ArticleNotText', 'content/news/windows-1252.md:2:')).toContain('byte 0xE9 is no UTF-8 character');
    expect(problem('ArticleNotText', 'content/news/utf-16.md:')).toContain('saved as UTF-16');
  });
});

describe('links to articles this build leaves out say why', () => {
  it('a draft and a future post, each with what to do', () => {
    expect(linked.code, linked.stderr).toBe(1);
    expect(linked.stderr).toMatch(
      /\[LinkToHeldBack\][^\n]*\n {2}content\/news\/links-to-held-back\.md:\d+: The page \/news\/links-to-held-back links to \/news\/a-draft, which is a draft \(content\/news\/a-draft\.md\); build with --drafts to include it\./,
    );
    expect(linked.stderr).toMatch(
      /links to \/news\/in-the-future\/, which is dated 2999-01-01 \(content\/news\/in-the-future\.md\), after the build time; build with --future to include it\./,
    );
    // The draft's file name leads to the draft too; a slash after a file that is no page leads nowhere (hosts answer 404).
    expect(linked.stderr).toMatch(/links to \/news\/a-draft\.html, which is a draft/);
    expect(linked.stderr).toMatch(
      /\[LinkBroken\][^\n]*\n {2}content\/news\/slash-to-a-file\.md:\d+: The page \/news\/slash-to-a-file links to \/news\/feed\.xml\/, which no route or public file provides/,
    );
    expect(linked.stderr.match(/\[LinkBroken\]/g)).toHaveLength(1);
  });
});
