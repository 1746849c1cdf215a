import { describe, expect, it } from 'vitest';
import { isValidSlug } from '../src/content/slug.ts';
import { parseArticle, parseArticles } from '../src/content/article-parser.ts';
import { sortNewestFirst, withHtml, type Article } from '../src/content/article.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';

const now = new Date('2026-02-03T04:05:06.000Z');

function parse(file: string, text: string, warnings: string[] = []) {
  return parseArticle({ file, text }, { now, warn: (message) => warnings.push(message) });
}

describe('parseArticle', () => {
  it('reads every field from front matter', () => {
    const article = parse(
      'content/news/hello-world.md',
      '---\ntitle: Hello\ndate: "2025-01-01"\nexcerpt: Short\ntags: [a, b]\n---\n# Body\n',
    );
    expect(article).toMatchObject({
      slug: 'hello-world',
      title: 'Hello',
      date: '2025-01-01',
      excerpt: 'Short',
      tags: ['a', 'b'],
      markdown: '# Body\n',
      draft: false,
    });
  });

  it('is never changed once made: converting makes a new value, and assigning to one throws', () => {
    const parsed = parse('content/news/a.md', '---\ntitle: A\ndate: "2025-01-01"\ntags: [x]\n---\nBody\n');
    const converted = withHtml(parsed, { html: '<p>Body</p>' });
    expect(converted).not.toBe(parsed);
    expect(parsed.html).toBe('');
    expect(converted).toMatchObject({ ...parsed, html: '<p>Body</p>' });
    for (const article of [parsed, converted]) {
      expect(() => Object.assign(article, { html: 'x' })).toThrow(TypeError);
      expect(() => (article.tags as string[]).push('y')).toThrow(TypeError);
    }
  });

  it('reads description as the excerpt, saying so; excerpt wins when both are given', () => {
    const warnings: string[] = [];
    expect(
      parse('content/news/a.md', '---\ntitle: A\ndate: "2025-01-01"\ndescription: From Astro.\n---\nBody\n', warnings)
        .excerpt,
    ).toBe('From Astro.');
    expect(warnings).toEqual([
      'content/news/a.md:4: "description" is read as the excerpt (the name this site uses); rename it to excerpt.',
    ]);
    const both: string[] = [];
    expect(
      parse('content/news/a.md', '---\ndate: "2025-01-01"\nexcerpt: Mine.\ndescription: Other.\n---\nBody\n', both)
        .excerpt,
    ).toBe('Mine.');
    expect(both).toEqual(['content/news/a.md:4: "description" is not read, as excerpt is given; remove one of them.']);
  });

  it('takes the excerpt from the text before <!--more--> when front matter gives none, without its markup', () => {
    const article = parse(
      'content/news/a.md',
      '---\ndate: "2025-01-01"\n---\nFirst **bold** [link](https://x.example) para.\n\nSecond `code`.\n\n<!--more-->\n\nThe rest.\n',
    );
    expect(article.excerpt).toBe('First bold link para. Second code.');
    expect(
      parse('content/news/a.md', '---\ndate: "2025-01-01"\nexcerpt: Given.\n---\nA\n\n<!-- more -->\n').excerpt,
    ).toBe('Given.');
    expect(parse('content/news/a.md', '---\ndate: "2025-01-01"\n---\nNo marker.\n').excerpt).toBe('');
    // In a code sample it is text, not the marker... as written at the start of a line, it is the marker.
    expect(parse('content/news/a.md', '---\ndate: "2025-01-01"\n---\nUse `<!--more-->` inline.\n').excerpt).toBe('');
  });

  it('defaults the title to the slug and the excerpt to an empty string', () => {
    const article = parse('a/my-post.md', '---\ndate: "2025-01-01"\n---\nx');
    expect(article.title).toBe('my-post');
    expect(article.excerpt).toBe('');
  });

  it('uses the build time as an ISO string when the date is missing, and warns naming the file', () => {
    const warnings: string[] = [];
    const article = parse('content/news/no-date.md', 'Just a body', warnings);
    expect(article.date).toBe('2026-02-03T04:05:06.000Z');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('content/news/no-date.md');
  });

  it('uses the build time when the date is not a string', () => {
    const warnings: string[] = [];
    expect(parse('x.md', '---\ndate: 20250101\n---\n', warnings).date).toBe(now.toISOString());
    expect(warnings[0]).toContain('not a string');
  });

  it('has tags only when front matter gives a list', () => {
    expect(parse('x.md', '---\ndate: "2025-01-01"\ntags: solo\n---\n')).not.toHaveProperty('tags');
    expect(parse('x.md', '---\ndate: "2025-01-01"\n---\n')).not.toHaveProperty('tags');
    expect(parse('x.md', '---\ndate: "2025-01-01"\ntags: []\n---\n').tags).toEqual([]);
  });

  it('keeps the whole file as Markdown when there is no front matter', () => {
    expect(parse('x.md', '# Title\n\nText').markdown).toBe('# Title\n\nText');
  });

  it('marks drafts', () => {
    expect(parse('x.md', '---\ndate: "2025-01-01"\ndraft: true\n---\n').draft).toBe(true);
  });

  it('rejects a file name that is not a safe URL slug', () => {
    expect(() => parse('content/news/Hello World.md', 'x')).toThrowError(SsgError);
    try {
      parse('content/news/Hello World.md', 'x');
    } catch (error) {
      expect((error as SsgError).code).toBe('ArticleSlugInvalid');
      expect((error as SsgError).file).toBe('content/news/Hello World.md');
    }
  });
});

describe('isValidSlug', () => {
  it.each(['hello', 'hello-world', '2025-recap', 'a1-b2'])('accepts %s', (slug) =>
    expect(isValidSlug(slug)).toBe(true),
  );
  it.each(['Hello', 'hello world', '-lead', 'trail-', 'double--dash', 'dot.name', 'ümlaut', '', '../up'])(
    'rejects %j',
    (slug) => expect(isValidSlug(slug)).toBe(false),
  );
});

describe('sortNewestFirst', () => {
  const article = (slug: string, date: string) => ({ slug, date }) as Article;
  it('orders by date, newest first, then by slug; unreadable dates last', () => {
    const sorted = sortNewestFirst([
      article('old', '2023-01-01'),
      article('bad', 'someday'),
      article('new', '2025-06-01T10:00:00Z'),
      article('b-mid', '2024-01-01'),
      article('a-mid', '2024-01-01'),
    ]);
    expect(sorted.map((a) => a.slug)).toEqual(['new', 'a-mid', 'b-mid', 'old', 'bad']);
  });
});

describe('parseArticles', () => {
  it('rejects two files with one slug, naming both', () => {
    const sources = [
      { file: 'content/news/2024/recap.md', text: 'a' },
      { file: 'content/news/recap.md', text: 'b' },
    ];
    try {
      parseArticles(sources, { now, warn: () => {} });
      expect.unreachable();
    } catch (error) {
      expect((error as SsgError).code).toBe('ArticleSlugDuplicate');
      expect((error as SsgError).file).toBe('content/news/recap.md');
      expect((error as SsgError).message).toContain('content/news/2024/recap.md');
    }
  });

  it('reports every bad file at once', () => {
    const sources = [
      { file: 'a.md', text: '---\nunclosed' },
      { file: 'B.md', text: 'x' },
    ];
    try {
      parseArticles(sources, { now, warn: () => {} });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SsgErrorList);
      expect((error as SsgErrorList).errors.map((e) => e.code)).toEqual(['FrontMatterUnclosed', 'ArticleSlugInvalid']);
    }
  });

  it('returns articles newest first', () => {
    const articles = parseArticles(
      [
        { file: 'older.md', text: '---\ndate: "2020-01-01"\n---\n' },
        { file: 'newer.md', text: '---\ndate: "2021-01-01"\n---\n' },
      ],
      { now, warn: () => {} },
    );
    expect(articles.map((a) => a.slug)).toEqual(['newer', 'older']);
  });
});

describe('earlier addresses (aliases, redirect_from)', () => {
  it("reads Hugo's aliases and Jekyll's redirect_from, a path or a list, each once", () => {
    const warnings: string[] = [];
    const article = parse(
      'content/news/a.md',
      '---\ntitle: A\ndate: 2024-01-01\naliases: [/blog/a, old-a]\nredirect_from: /blog/a\n---\nBody.\n',
      warnings,
    );
    expect(article.movedFrom).toEqual(['/blog/a', 'old-a']);
    expect(warnings).toEqual([]);
    expect(parse('content/news/b.md', '---\ntitle: B\ndate: 2024-01-01\n---\nBody.\n').movedFrom).toBeUndefined();
  });

  it('refuses an alias that is no address, naming the line', () => {
    try {
      parse('content/news/a.md', '---\ntitle: A\ndate: 2024-01-01\naliases: 3\n---\nBody.\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SsgError);
      expect((error as SsgError).line).toBe(4);
      expect((error as SsgError).message).toContain('aliases must be an earlier address');
    }
  });
});
