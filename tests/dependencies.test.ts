import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/articles.ts';
import { changedFields, dependsOnArticles, emptyReads, isTracked, mapArticlesIn, trackReads, untracked } from '../src/render/dependencies.ts';
import { classify } from '../src/pipeline/incremental.ts';
import { groupByTag, groupSignatures, tagGroup } from '../src/content/tags.ts';
import { projectAt } from '../src/project.ts';

const article = (slug: string, extra: Partial<Article> = {}): Article => ({
  slug,
  title: slug,
  date: '2025-01-01',
  excerpt: '',
    excerptHtml: '',
  markdown: '',
  html: '',
  draft: false,
  file: `content/news/${slug}.md`,
  data: {},
  headings: [],
  readingTime: 0,
  ...extra,
});

describe('trackReads', () => {
  it("a tag's group read from a tracked list is one read of that group, its items tracked as they are shown", () => {
    const articles = Array.from({ length: 50 }, (_, n) => article(`a${n}`, { tags: n % 2 ? ['Odd', 'All'] : ['All'] }));
    const reads = emptyReads();
    const tracked = trackReads(articles, {}, reads);
    const group = tagGroup(tracked.articles, 'odd')!;
    expect(group.articles).toHaveLength(25);
    // Nothing read of any one article yet, nor of the whole list: the group is the read.
    expect(reads.tagGroups).toEqual(new Set(['odd']));
    expect(reads.listFields.size).toBe(0);
    expect(reads.articleList).toBe(false);
    expect(reads.articleFields.size).toBe(0);
    const shown = group.articles.slice(0, 2).map((item) => item.title);
    expect(shown).toEqual(['a1', 'a3']);
    expect([...reads.articleFields.keys()]).toEqual(['a1', 'a3']);
    // The same groups as untracked, and as groupByTag gives them (a read of every article's tags).
    expect(tagGroup(articles, 'odd')!.articles.map((item) => item.slug)).toEqual(group.articles.map((item) => untracked(item).slug));
    const listReads = emptyReads();
    expect(groupByTag(trackReads(articles, {}, listReads).articles).map((item) => [item.slug, item.articles.length])).toEqual([['all', 50], ['odd', 25]]);
    expect(listReads.listFields).toEqual(new Set(['tags']));
    // Told which groups changed, only a change of its own reaches the page; of a title, only if it showed it.
    const oddChanged = (slug: string) => slug === 'odd';
    const noneChanged = () => false;
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map(), groupChanged: oddChanged })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map([['a8', new Set(['tags'])]]), groupChanged: noneChanged })).toBe(false);
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a3', new Set(['title'])]]), groupChanged: noneChanged })).toBe(true);
    // Not told: any change of the list or of an article's tags may have changed the group.
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a8', new Set(['tags'])]]) })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map() })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a8', new Set(['title'])]]) })).toBe(false);
  });

  it("a tag's group is seen by its name and its articles in order, by the same text whenever they are the same", () => {
    const articles = [article('n1', { tags: ['Odd'] }), article('n2', { tags: ['odd', 'All'] }), article('n3', { tags: ['All'] })];
    const before = groupSignatures(articles);
    expect([...before.keys()].sort()).toEqual(['all', 'odd']);
    // Another article of another tag, or a title changed: the group reads the same.
    expect(groupSignatures([...articles, article('n4', { tags: ['Other'] })]).get('odd')).toBe(before.get('odd'));
    expect(groupSignatures([{ ...articles[0]!, title: 'New' }, ...articles.slice(1)]).get('odd')).toBe(before.get('odd'));
    // A new member, another order, another spelling by its newest article: it does not.
    expect(groupSignatures([article('n0', { tags: ['odd'] }), ...articles]).get('odd')).not.toBe(before.get('odd'));
    expect(groupSignatures([articles[1]!, articles[0]!, articles[2]!]).get('odd')).not.toBe(before.get('odd'));
    expect(groupSignatures([{ ...articles[0]!, tags: ['ODD'] }, ...articles.slice(1)]).get('odd')).not.toBe(before.get('odd'));
  });

  it('records the fields a page read of each article, and whether it used the list', () => {
    const articles = [article('a'), article('b'), article('c')];
    const reads = emptyReads();
    const tracked = trackReads(articles, { site: {}, networks: [] }, reads);
    const found = tracked.articles.find((item) => item.slug === 'b')!;
    void found.html;
    void tracked.data.site;
    expect(reads.articleList).toBe(true);
    expect(reads.articleFields.get('b')).toEqual(new Set(['slug', 'html']));
    expect(reads.articleFields.get('a')).toEqual(new Set(['slug']));
    expect(reads.articleFields.has('c')).toBe(false);
    expect(reads.dataKeys).toEqual(new Set(['site']));
  });

  it('records what a page read of articles handed inside its entry: in lists and objects, at any depth (fast-check)', () => {
    const articles = [article('a'), article('b'), article('c'), article('d')];
    // An entry value: an article, a list or a plain object of such values, or something else.
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(...articles),
        fc.constantFrom('text', 3, null, undefined),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('group', 'items', 'prev', 'next'), tie('value'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('group', 'article', 'picks'), value), (entry) => {
        const reads = emptyReads();
        const tracked = trackReads(articles, {}, reads, entry).entry;
        // The same shape, articles and all, when looked through the proxies.
        const seen = new Set<string>();
        const visit = (original: unknown, copy: unknown): void => {
          if (articles.includes(original as Article)) {
            expect(isTracked(copy as object)).toBe(true);
            expect(untracked(copy)).toBe(original);
            seen.add((copy as Article).slug);
            void (copy as Article).title;
          } else if (original && typeof original === 'object') {
            expect(Object.keys(copy as object)).toEqual(Object.keys(original));
            for (const key of Object.keys(original)) visit((original as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key]);
          } else expect(copy).toBe(original);
        };
        visit(entry, tracked);
        expect(new Set(reads.articleFields.keys())).toEqual(seen);
        for (const slug of seen) expect(reads.articleFields.get(slug)).toContain('title');
        // Nothing of the entry itself was changed.
        expect(mapArticlesIn(entry, isTracked, untracked)).toBe(entry);
      }),
    );
  });

  it('a page that never touches articles depends on none', () => {
    const reads = emptyReads();
    trackReads([article('a')], {}, reads);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map([['a', new Set(['title'])]]) })).toBe(false);
  });
});

describe('dependsOnArticles', () => {
  const reads = emptyReads();
  reads.articleList = true;
  reads.articleFields.set('a', new Set(['slug', 'title']));

  it('matches a changed field the page read', () => {
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a', new Set(['title'])]]) })).toBe(true);
  });
  it('ignores a changed field the page did not read', () => {
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a', new Set(['html', 'markdown'])]]) })).toBe(false);
  });
  it('matches any list change for a page that used the list', () => {
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map() })).toBe(true);
  });
});

describe('changedFields', () => {
  it('names the fields that differ', () => {
    expect(changedFields(article('a', { tags: ['x'] }), article('a', { title: 'New', tags: ['x', 'y'] }))).toEqual(new Set(['title', 'tags']));
  });
});

describe('classify', () => {
  const project = projectAt('/site');
  it.each([
    ['content/news/a.md', 'article'],
    ['content/news/2024/a.md', 'article'],
    ['content/site.yaml', 'data'],
    ['content/networks.yml', 'data'],
    ['templates/document.html', 'template'],
    ['site/styles/index.css', 'style'],
    ['site/public/logo.svg', 'public'],
    ['site/pages/home.tsx', 'code'],
    ['site/islands/faq.tsx', 'code'],
    ['content/news/notes.txt', undefined],
    ['README.md', undefined],
  ])('%s is %s', (file, kind) => expect(classify(project, file)).toBe(kind));
});
