import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isPublished, type Article } from '../src/content/article.ts';
import { parseArticle, parseArticles } from '../src/content/article-parser.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { dateShapeProblem, isoDate, lineOfKey } from '../src/content/frontmatter.ts';

const now = new Date('2026-02-03T04:05:06.000Z');
const parse = (text: string, warnings: string[] = []) =>
  parseArticle({ file: 'content/news/post.md', text }, { now, warn: (m) => warnings.push(m) });
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as SsgError | SsgErrorList;
  }
  throw new Error('expected an error');
};

describe('draft', () => {
  it.each(['"true"', 'yes', '1', '"false"', 'no', '[true]', 'null'])(
    'draft: %s is an error naming the file and line',
    (value) => {
      const error = errorOf(() => parse(`---\ntitle: T\ndate: "2025-01-01"\ndraft: ${value}\n---\nBody`)) as SsgError;
      expect(error).toBeInstanceOf(SsgError);
      expect(error.code).toBe('FrontMatterFieldInvalid');
      expect(error.where).toBe('content/news/post.md:4');
      expect(error.message).toMatch(/^draft must be true or false, without quotes/);
    },
  );

  it('accepts true and false', () => {
    expect(parse('---\ndraft: true\ndate: "2025-01-01"\n---\n').draft).toBe(true);
    expect(parse('---\ndraft: false\ndate: "2025-01-01"\n---\n').draft).toBe(false);
  });
});

describe('date', () => {
  it('is an error when it is a string but no date, naming file and line', () => {
    for (const value of ['"yesterday"', '"2025-02-30"', '"2025-13-01"', '"01/02/2025"', '"2025-01-01T25:00"']) {
      const error = errorOf(() => parse(`---\ndate: ${value}\n---\n`)) as SsgError;
      expect(error.code).toBe('FrontMatterFieldInvalid');
      expect(error.where).toBe('content/news/post.md:2');
    }
  });

  it('that has the shape of a date says why it is none, not how to write one', () => {
    const said = (value: string) => (errorOf(() => parse(`---\ndate: "${value}"\n---\n`)) as SsgError).message;
    expect(said('2025-04-31')).toBe('date "2025-04-31" is not a date: April has 30 days.');
    expect(said('2025-02-29')).toBe('date "2025-02-29" is not a date: February 2025 has 28 days.');
    expect(said('2025-13-01')).toBe('date "2025-13-01" is not a date: there is no month 13.');
    expect(said('2025-06-00')).toBe('date "2025-06-00" is not a date: there is no day 00.');
    expect(said('2025-01-01T25:00')).toBe('date "2025-01-01T25:00" is not a date: 25:00 is no time of day.');
    expect(said('01/02/2025')).toBe(
      'date "01/02/2025" is not a date; write it as "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM", UTC).',
    );
  });

  it('in the shape of a date: a date, or a reason why not, for any numbers', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), two(99), two(99), (year, month, day) => {
        const text = `${String(year).padStart(4, '0')}-${month}-${day}`;
        expect(isoDate(text) === undefined).toBe(dateShapeProblem(text) !== undefined);
      }),
    );
  });

  it("is carried as ISO 8601: a day stays a day, a time keeps the author's clock and zone (no zone: UTC)", () => {
    expect(parse('---\ndate: 2025-01-01\n---\n').date).toBe('2025-01-01');
    expect(parse('---\ndate: "2025-01-01 09:30"\n---\n').date).toBe('2025-01-01T09:30:00.000Z');
    expect(parse('---\ndate: "2025-01-01T09:30:00+02:00"\n---\n').date).toBe('2025-01-01T09:30:00.000+02:00');
    // As Jekyll writes it (unquoted, a space before the zone), and RFC 3339 with a fraction and a small z.
    expect(parse('---\ndate: 2023-04-05 10:00:00 +0200\n---\n').date).toBe('2023-04-05T10:00:00.000+02:00');
    expect(parse('---\ndate: 2023-04-06t23:30:00.25-05:00\n---\n').date).toBe('2023-04-06T23:30:00.250-05:00');
    expect(Date.parse(parse('---\ndate: 2023-04-06T23:30:00-05:00\n---\n').date)).toBe(Date.UTC(2023, 3, 7, 4, 30));
  });

  it('missing or not a string: the build time, with a warning (the spec default)', () => {
    const warnings: string[] = [];
    expect(parse('---\ndate: 20250101\n---\n', warnings).date).toBe(now.toISOString());
    expect(warnings[0]).toContain('content/news/post.md: no date in front matter (it is not a string)');
  });

  it('isoDate accepts only real dates, for any random string', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const iso = isoDate(text);
        if (iso !== undefined) expect(Number.isNaN(Date.parse(iso))).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          const day = date.toISOString().slice(0, 10);
          expect(isoDate(day)).toBe(day);
          expect(isoDate(date.toISOString())).toBe(date.toISOString());
        },
      ),
    );
    // Any time in any zone, as Jekyll, Hugo or RFC 3339 write it: the same instant, and the day as written.
    const pad = (value: number, length = 2) => String(value).padStart(length, '0');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.constantFrom('T', 't', ' '),
        fc.constantFrom(':', ''),
        fc.constantFrom('', ' '),
        (date, offset, separator, colon, space) => {
          const local = new Date(date.getTime() + offset * 60_000);
          const day = local.toISOString().slice(0, 10);
          const clock = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
          const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}${colon}${pad(Math.abs(offset) % 60)}`;
          const iso = isoDate(`${day}${separator}${clock}${space}${zone}`);
          expect(iso?.slice(0, 10)).toBe(day);
          expect(Date.parse(iso!)).toBe(Math.floor(date.getTime() / 1000) * 1000);
        },
      ),
    );
  });
});

describe('keys that look like known ones', () => {
  it('warn with what was meant, file and line', () => {
    const warnings: string[] = [];
    parse('---\ntitle: T\ndate: "2025-01-01"\nsummary: S\ndescription: D\npublished: true\n---\n', warnings);
    expect(warnings).toEqual([
      'content/news/post.md:4: "summary" in front matter is not read; did you mean excerpt?',
      'content/news/post.md:6: "published" in front matter is not read; did you mean draft?',
      'content/news/post.md:5: "description" is read as the excerpt (the name this site uses); rename it to excerpt.',
    ]);
  });

  it("that would publish what another generator holds back, or elsewhere, are refused by name, all of a file's at once", () => {
    const error = errorOf(() =>
      parse(
        '---\ntitle: T\npublished: false\npermalink: false\npublishDate: 2999-01-01\nexpiryDate: 2024-01-01\n_build: {render: never}\neleventyExcludeFromCollections: true\n---\n',
      ),
    ) as SsgErrorList;
    expect(error.errors.map((item) => [item.code, item.where])).toEqual(
      [3, 4, 5, 6, 7, 8].map((line) => ['FrontMatterKeyNotRead', `content/news/post.md:${line}`]),
    );
    expect(error.errors[0]!.message).toBe(
      'published: false is not read: Jekyll keeps an article with published: false unpublished, which this site would publish.',
    );
    expect(error.errors[0]!.hint).toBe('Write draft: true to keep it unpublished (and remove the published line).');
    // What changes nothing passes; a YAML merge key is applied, as Jekyll's and Hugo's readers apply it.
    expect(parse('---\ndate: "2025-01-01"\neleventyExcludeFromCollections: false\n---\n').draft).toBe(false);
    expect(parse('---\ndefaults: &d {draft: true}\n<<: *d\ndate: "2025-01-01"\n---\n').draft).toBe(true);
  });

  it('are quiet when the known key is there too, and for unrelated keys', () => {
    const warnings: string[] = [];
    parse('---\ndate: "2025-01-01"\nexcerpt: E\nsummary: S\nauthor: A\n---\n', warnings);
    expect(warnings).toEqual([]);
  });
});

describe('random front matter values', () => {
  const value = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    // Not the key `<<`: yaml's stringify writes it bare, which front matter reads as a merge (YAML 1.1).
    fc.dictionary(
      fc.string().filter((key) => key !== '<<'),
      fc.string(),
      { maxKeys: 2 },
    ),
  );
  it('either parse into a well-typed article or fail with FrontMatterFieldInvalid naming the file', () => {
    fc.assert(
      fc.property(
        fc.record({ title: value, date: value, excerpt: value, tags: value, draft: value }, { requiredKeys: [] }),
        (data) => {
          const text = `---\n${stringify(data)}---\nBody\n`;
          let article: Article;
          try {
            article = parse(text);
          } catch (error) {
            const errors = error instanceof SsgErrorList ? error.errors : [error as SsgError];
            for (const each of errors) {
              expect(each.code).toBe('FrontMatterFieldInvalid');
              expect(each.file).toBe('content/news/post.md');
              expect(each.line).toBeGreaterThan(1);
            }
            const badDraft = data.draft !== undefined && typeof data.draft !== 'boolean';
            const badDate = typeof data.date === 'string' && isoDate(data.date) === undefined;
            expect(badDraft || badDate).toBe(true);
            return;
          }
          expect(typeof article.title).toBe('string');
          expect(typeof article.excerpt).toBe('string');
          expect(typeof article.draft).toBe('boolean');
          expect(Number.isNaN(Date.parse(article.date))).toBe(false);
          expect(article.draft).toBe(data.draft === true);
        },
      ),
      // A map of tags with a key `toString` once crashed the parser (String() of it throws).
      { numRuns: 300, examples: [[{ tags: { toString: '' } }]] },
    );
  });

  it('tags written as a map are no list: a warning, no tags, whatever its keys', () => {
    for (const tags of ['{ a: b }', '{ toString: "", valueOf: "" }']) {
      const warnings: string[] = [];
      expect(parse(`---\ndate: "2025-01-01"\ntags: ${tags}\n---\nBody\n`, warnings).tags).toBeUndefined();
      expect(warnings).toEqual([
        expect.stringMatching(
          /^content\/news\/post\.md:3: tags is \{.*\}, not a list, so the article gets no tags; write it as a list: tags: \[release, guide\]$/,
        ),
      ]);
    }
  });

  it('every bad field of every file is reported at once', () => {
    const error = errorOf(() =>
      parseArticles(
        [
          { file: 'a.md', text: '---\ndraft: "yes"\ndate: "soon"\n---\n' },
          { file: 'b.md', text: '---\ndraft: 1\n---\n' },
        ],
        { now, warn: () => {} },
      ),
    ) as SsgErrorList;
    expect(error.errors.map((each) => each.where)).toEqual(['a.md:2', 'a.md:3', 'b.md:2']);
  });

  it('lineOfKey finds quoted keys and stops at the closing fence', () => {
    expect(lineOfKey('---\n"draft": 1\n---\ndraft: 2', 'draft')).toBe(2);
    expect(lineOfKey('---\ntitle: x\n---\ndraft: 2', 'draft')).toBeUndefined();
  });
});

describe('isPublished', () => {
  const article = (date: string, draft = false) => ({ date, draft }) as Article;
  it('holds back drafts without --drafts and future dates without --future', () => {
    expect(isPublished(article('2026-02-03'), { now })).toBe(true);
    expect(isPublished(article('2026-02-04'), { now })).toBe(false);
    expect(isPublished(article('2026-02-03T04:05:07.000Z'), { now })).toBe(false);
    expect(isPublished(article('2026-02-04'), { now, future: true })).toBe(true);
    expect(isPublished(article('2025-01-01', true), { now })).toBe(false);
    expect(isPublished(article('2025-01-01', true), { now, drafts: true })).toBe(true);
  });
});

describe('the fields authors bring from other generators', () => {
  const front = (lines: string) => `---\ntitle: T\ndate: "2025-01-01"\n${lines}\n---\nBody\n`;

  it('updated is a checked date; one before the date is warned about', () => {
    expect(parse(front('updated: "2025-02-03T10:00+01:00"')).updated).toBe('2025-02-03T10:00:00.000+01:00');
    expect(parse(front('updated: 2025-02-03')).updated).toBe('2025-02-03');
    const error = errorOf(() => parse(front('updated: "last week"'))) as SsgError;
    expect(error.code).toBe('FrontMatterFieldInvalid');
    expect(error.where).toBe('content/news/post.md:4');
    expect(error.message).toMatch(/^updated "last week" is not a date/);
    expect((errorOf(() => parse(front('updated: 2025'))) as SsgError).message).toMatch(/^updated must be a date/);
    const warnings: string[] = [];
    parse(front('updated: "2024-12-31"'), warnings);
    expect(warnings).toEqual([
      'content/news/post.md:4: updated (2024-12-31) is before the date (2025-01-01); check which of them is right.',
    ]);
  });

  it('author is a name or a list of names, joined as a byline', () => {
    expect(parse(front('author: "  Anna   Berger "'))).toMatchObject({
      author: 'Anna Berger',
      authors: ['Anna Berger'],
    });
    expect(parse(front('author: [A, B]'))).toMatchObject({ author: 'A and B', authors: ['A', 'B'] });
    expect(parse(front('author: [A, B, C]')).author).toBe('A, B and C');
    // Numbers are names as written (YAML would read them as numbers).
    expect(parse(front('author: [A, 3]')).author).toBe('A and 3');
    expect(parse(front('author: 42')).author).toBe('42');
    for (const value of ['""', '[]', '{name: A}', '[A, ""]', '[A, {b: 1}]']) {
      const error = errorOf(() => parse(front(`author: ${value}`))) as SsgError;
      expect(error.code, value).toBe('FrontMatterFieldInvalid');
      expect(error.where, value).toBe('content/news/post.md:4');
      expect(error.message, value).toMatch(/^author /);
    }
  });

  it('canonical must be an absolute http(s) URL', () => {
    expect(parse(front('canonical: https://example.org/a?b=1')).canonical).toBe('https://example.org/a?b=1');
    for (const value of [
      '/news/a',
      'example.org/a',
      'javascript:alert(1)',
      'mailto:a@example.org',
      '""',
      '42',
      'https://',
      'https://user:pass@example.org/a',
      'https://user@example.org/',
    ]) {
      const error = errorOf(() => parse(front(`canonical: ${value}`))) as SsgError;
      expect(error.code, value).toBe('FrontMatterFieldInvalid');
      expect(error.where, value).toBe('content/news/post.md:4');
    }
  });

  it('image is a raster file of the project, from the article’s folder or from the public folder', () => {
    const at = (file: string, text: string, files = { root: '/site', publicDir: '/site/site/public' }) =>
      parseArticle({ file, text }, { now, warn: () => {}, files });
    expect(at('content/news/a.md', front('image: cover.png\nimageAlt: A cover')).image).toEqual({
      file: 'content/news/cover.png',
      alt: 'A cover',
    });
    expect(at('content/news/b/index.md', front('image: ./pics/c.webp\nimageAlt: C')).image).toEqual({
      file: 'content/news/b/pics/c.webp',
      alt: 'C',
    });
    expect(at('content/news/a.md', front('image: /og.jpg\nimageAlt: O')).image).toEqual({
      file: 'site/public/og.jpg',
      alt: 'O',
    });
    for (const [value, message] of [
      ['https://cdn.example/a.png', /is a URL/],
      ['cover.svg', /not a PNG, JPEG, WebP, AVIF or GIF/],
      ['cover', /not a PNG, JPEG, WebP, AVIF or GIF/],
      ['../../../etc/x.png', /outside the content folder and site\/public/],
      ['../../x.png', /outside the content folder and site\/public/],
      ['/../../x.png', /outside the content folder and site\/public/],
      ['""', /image is empty/],
    ] as const) {
      const error = errorOf(() => at('content/news/a.md', front(`image: ${value}`))) as SsgError;
      expect(error.code, value).toBe('FrontMatterFieldInvalid');
      expect(error.where, value).toBe('content/news/a.md:4');
      expect(error.message, value).toMatch(message);
    }
  });

  it('a Windows path is a path, not a URL', () => {
    const article = parseArticle(
      { file: 'content/news/a.md', text: front('image: C:\\pics\\a.png') },
      { now, warn: () => {}, files: { root: '/site', publicDir: '/site/site/public' } },
    );
    expect(article.image?.file).toBe('content/news/C:\\pics\\a.png');
  });

  it('updated in the future is warned about, unless the article itself is scheduled', () => {
    const warnings: string[] = [];
    parse(front('updated: "2099-01-01"'), warnings);
    parse('---\ndate: "2098-01-01"\nupdated: "2099-01-01"\n---\n', warnings);
    expect(warnings).toEqual([
      'content/news/post.md:4: updated (2099-01-01) is in the future; give the day the article was last changed.',
    ]);
  });

  it('image without imageAlt is described by the title, with a warning; imageAlt alone is warned about', () => {
    const warnings: string[] = [];
    expect(parse(front('image: a.png'), warnings).image).toEqual({ file: 'content/news/a.png', alt: 'T' });
    expect(parse(front('imageAlt: Nothing'), warnings).image).toBeUndefined();
    expect(warnings).toEqual([
      'content/news/post.md:4: image has no imageAlt; say what it shows for readers who cannot see it (the title is used until then).',
      'content/news/post.md:4: imageAlt is not read without image; give the image it describes, or remove the line.',
    ]);
  });

  it.each([
    ['pubDate', 'date'],
    ['lastmod', 'updated'],
    ['updatedDate', 'updated'],
    ['summary', 'excerpt'],
    ['heroImage', 'image'],
    ['cover_image', 'image'],
    ['canonicalURL', 'canonical'],
  ])('%s gets "did you mean %s" with its line', (key, meant) => {
    const warnings: string[] = [];
    parse(`---\n${key}: x\n---\nBody\n`, warnings);
    expect(warnings).toContain(`content/news/post.md:2: "${key}" in front matter is not read; did you mean ${meant}?`);
  });

  it.each([
    ['darft', 'draft'],
    ['tittle', 'title'],
    ['tilte', 'title'],
    ['Title', 'title'],
    ['exerpt', 'excerpt'],
    ['tgas', 'tags'],
    ['udpated', 'updated'],
    ['imgeAlt', 'imageAlt'],
    ['authors', 'author'],
  ])('%s, a slip of the keyboard, fails with "did you mean %s" at its line', (key, meant) => {
    const error = errorOf(() => parse(`---\ndate: "2025-01-01"\n${key}: true\n---\nBody\n`)) as SsgError;
    expect(error.code).toBe('FrontMatterKeyMisspelt');
    expect(error.where).toBe('content/news/post.md:3');
    expect(error.message).toBe(`"${key}" is not a key ssg reads, so it changes nothing; did you mean ${meant}?`);
  });

  it('every slip in a file is named at once, one error each', () => {
    const error = errorOf(() => parse('---\ntittle: T\ndarft: true\ntgas: [a]\n---\nBody\n')) as SsgErrorList;
    expect(error.errors.map((item) => [item.code, item.where])).toEqual(
      [2, 3, 4].map((line) => ['FrontMatterKeyMisspelt', `content/news/post.md:${line}`]),
    );
  });

  it('a slip beside the key it was meant as fails too: it changes nothing either', () => {
    const error = errorOf(() => parse('---\ndraft: false\ndarft: true\n---\nBody\n')) as SsgError;
    expect([error.code, error.where]).toEqual(['FrontMatterKeyMisspelt', 'content/news/post.md:3']);
  });

  it('a file of thousands of slips is told about ten, and how many more there are', () => {
    const keys = Array.from(
      { length: 500 },
      (_, index) => `draf${String.fromCharCode(97 + (index % 26))}${'t'.repeat(Math.floor(index / 26))}`,
    );
    const slips = keys.filter((key) => key !== 'draft' && /^draf[a-z]t?$/.test(key));
    const text = `---\n${slips.map((key) => `${key}: 1`).join('\n')}\n---\nBody\n`;
    const error = errorOf(() => parse(text)) as SsgErrorList;
    expect(error.errors).toHaveLength(11);
    expect(error.errors[10]!.message).toBe(`${slips.length - 10} more keys look like misspelt ones.`);
  });

  it('a schema that takes any key (a record) leaves every key to it', async () => {
    const { z } = await import('zod');
    const read = parseArticle(
      { file: 'content/x/a.md', text: '---\ndate: "2025-01-01"\ntag: x\n---\n' },
      { now, warn: () => {}, collection: () => ({ name: 'x', schema: z.record(z.string(), z.unknown()) }) },
    );
    expect(read.data.tag).toBe('x');
  });

  it("a key the collection's schema declares is no slip, and a slip of the schema's own keys is one", async () => {
    const { z } = await import('zod');
    const schema = z.object({ drafts: z.array(z.string()).optional(), role: z.string().optional() });
    const read = (text: string) =>
      parseArticle(
        { file: 'content/team/a.md', text },
        { now, warn: () => {}, collection: () => ({ name: 'team', schema }) },
      );
    expect(read('---\ndate: "2025-01-01"\ndrafts: [a]\n---\n').data.drafts).toEqual(['a']);
    const error = errorOf(() => read('---\ndate: "2025-01-01"\nrloe: x\n---\n')) as SsgError;
    expect([error.code, error.message]).toEqual([
      'FrontMatterKeyMisspelt',
      '"rloe" is not a key ssg reads, so it changes nothing; did you mean role?',
    ]);
  });

  it('keys of a site of its own, and names of Object’s prototype, get no did-you-mean', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'constructor',
          'toString',
          '__proto__x',
          'hasOwnProperty',
          'network',
          'validator',
          'x',
          'layout',
          'weight',
        ),
        (key) => {
          const warnings: string[] = [];
          parse(`---\ndate: "2025-01-01"\n${key}: x\n---\nBody\n`, warnings);
          expect(warnings).toEqual([]);
        },
      ),
    );
  });

  it('never throws anything but a named error, whatever the values', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 2 }),
    );
    fc.assert(
      fc.property(
        fc.record(
          { updated: value, author: value, canonical: value, image: value, imageAlt: value },
          { requiredKeys: [] },
        ),
        (fields) => {
          const text = `---\n${stringify({ title: 'T', date: '2025-01-01', ...fields })}---\nBody\n`;
          try {
            const article = parse(text);
            if (article.canonical) expect(new URL(article.canonical).protocol).toMatch(/^https?:$/);
            if (article.image) expect(article.image.file.startsWith('..')).toBe(false);
          } catch (error) {
            expect(error instanceof SsgError || error instanceof SsgErrorList).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
