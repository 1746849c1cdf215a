import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { SsgError } from '../src/errors/errors.ts';
import { articleTagSlugs, groupByTag, tagGroup, tagSlug } from '../src/content/tags.ts';

const article = (slug: string, tags?: unknown): Article =>
  ({
    slug,
    title: slug,
    date: '2025-01-01',
    excerpt: '',
    excerptHtml: '',
    tags,
    markdown: '',
    html: '',
    data: {},
    draft: false,
    file: `content/news/${slug}.md`,
  }) as Article;

describe('tagSlug', () => {
  it('is empty or lowercase letters and digits joined by single hyphens, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 80 })), (tag) => {
        const slug = tagSlug(tag);
        expect(slug === '' || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)).toBe(true);
        expect(slug.length).toBeLessThanOrEqual(60);
        expect(tagSlug(slug)).toBe(slug);
      }),
      { numRuns: 300 },
    );
  });

  it('ignores case, spacing and punctuation, and folds accents', () => {
    expect(tagSlug('  Staking & Rewards!! ')).toBe('staking-rewards');
    expect(tagSlug('ETHEREUM')).toBe(tagSlug('ethereum'));
    expect(tagSlug('Zürich')).toBe('zurich');
    expect(tagSlug('../../etc/passwd')).toBe('etc-passwd');
    for (const nothing of ['', '   ', '!!!', 'ツ', '\u0000\u202e']) expect(tagSlug(nothing)).toBe('');
  });
});

describe('groupByTag', () => {
  it('puts each article once under each of its tags, spellings with one slug on one page', () => {
    const groups = groupByTag([article('b', ['Ethereum', 'ethereum', 'Celo']), article('a', ['ETHEREUM'])]);
    expect(groups.map((group) => [group.slug, group.name, group.articles.map((a) => a.slug)])).toEqual([
      ['celo', 'Celo', ['b']],
      ['ethereum', 'Ethereum', ['b', 'a']],
    ]);
  });

  it('for random tag lists: every (article, tag slug) pair appears exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 -]{0,12}$/), { maxLength: 5 }), { maxLength: 20 }),
        (lists) => {
          const articles = lists.map((tags, i) => article(`a${i}`, tags));
          const groups = groupByTag(articles);
          const pairs = groups.flatMap((group) => group.articles.map((a) => `${a.slug}:${group.slug}`));
          const expected = new Set(articles.flatMap((a) => (a.tags ?? []).map((tag) => `${a.slug}:${tagSlug(tag)}`)));
          expect(pairs.sort()).toEqual([...expected].sort());
        },
      ),
    );
  });

  it('stops with TagInvalid naming the file for a tag without a slug, or tags that are not text', () => {
    for (const tags of [['ok', '!!!'], 'staking', [42], [null]]) {
      let error: unknown;
      try {
        articleTagSlugs(article('bad', tags));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SsgError);
      expect((error as SsgError).code).toBe('TagInvalid');
      expect((error as SsgError).file).toBe('content/news/bad.md');
    }
    expect(() => groupByTag([article('fine', ['a']), article('bad', ['???'])])).toThrow(
      /"\?\?\?" has no letters or digits/,
    );
  });
});

describe('tagGroup', () => {
  it("is groupByTag's group of that slug, for random tag lists and slugs, and undefined for a slug no article has", () => {
    const tag = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 -]{0,8}$/);
    fc.assert(
      fc.property(fc.array(fc.array(tag, { maxLength: 4 }), { maxLength: 15 }), tag, (lists, asked) => {
        const articles = lists.map((tags, i) => article(`a${i}`, tags));
        const groups = groupByTag(articles);
        for (const slug of [...groups.map((group) => group.slug), tagSlug(asked)])
          expect(tagGroup(articles, slug)).toEqual(groups.find((group) => group.slug === slug));
      }),
      { numRuns: 200 },
    );
  });

  it("checks every article's tags, as groupByTag does", () => {
    expect(() => tagGroup([article('fine', ['a']), article('bad', ['???'])], 'a')).toThrow(
      /"\?\?\?" has no letters or digits/,
    );
  });
});
