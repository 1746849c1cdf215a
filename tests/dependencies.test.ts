import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Article } from '../src/content/article.ts';
import {
  changedFields,
  dependsOnArticles,
  emptyReads,
  isTracked,
  listChanges,
  listReadTexts,
  mapArticlesIn,
  trackReads,
  untracked,
} from '../src/render/dependencies.ts';
import { listPage } from '../src/content/pagination.ts';
import { classify } from '../src/pipeline/incremental.ts';
import { groupByTag, tagGroup } from '../src/content/tags.ts';
import { projectAt } from '../src/project.ts';
import { testArticle } from './helpers/article.ts';
import { viewArticles, viewKey } from '../src/render/list-views.ts';
import { readLines, readSignatures, readsAsBefore } from '../src/render/page-read-signatures.ts';

const article = testArticle;

describe('trackReads', () => {
  it("a tag's group read from a tracked list is a read of its name, of its members once read whole, of one page once paged", () => {
    const articles = Array.from({ length: 50 }, (_, n) => article(`a${n}`, { tags: n % 2 ? ['Odd', 'All'] : ['All'] }));
    const reads = emptyReads();
    const tracked = trackReads(articles, {}, reads);
    const group = tagGroup(tracked.articles, 'odd')!;
    // Its name only, so far: nothing of the whole list, nothing of any one article.
    expect(reads.tagNames).toEqual(new Set(['odd']));
    expect(reads.tagGroups.size + reads.listPages.size + reads.listFields.size + reads.articleFields.size).toBe(0);
    expect(reads.articleList).toBe(false);
    // One page of it: that page, its items tracked as they are shown.
    const second = listPage(group.articles, 10, '/news/tags/odd', 2)!;
    expect(second.items.map((item) => item.title)).toEqual([
      'a21',
      'a23',
      'a25',
      'a27',
      'a29',
      'a31',
      'a33',
      'a35',
      'a37',
      'a39',
    ]);
    expect(reads.listPages).toEqual(new Set(['10:2:g:odd']));
    expect(reads.tagGroups.size).toBe(0);
    expect([...reads.articleFields.keys()]).toEqual(
      ['a21', 'a23', 'a25', 'a27', 'a29', 'a31', 'a33', 'a35', 'a37', 'a39'].map((slug) => `content/news/${slug}.md`),
    );
    // The group read whole: its members and order (by its length, or its keys, or `in`).
    expect(group.articles).toHaveLength(25);
    expect(reads.tagGroups).toEqual(new Set(['odd']));
    for (const readWhole of [
      (items: Article[]) => Object.keys(items).length,
      (items: Article[]) => 3 in items,
      (items: Article[]) => Object.getOwnPropertyDescriptor(items, '0'),
    ]) {
      const alone = emptyReads();
      readWhole(tagGroup(trackReads(articles, {}, alone).articles, 'odd')!.articles);
      expect(alone.tagGroups).toEqual(new Set(['odd']));
      const list = emptyReads();
      readWhole(trackReads(articles, {}, list).articles as Article[]);
      expect(list.articleList).toBe(true);
    }
    // A page of the whole list: that page, not the list.
    listPage(tracked.articles, 10, '/news', 3);
    expect(reads.listPages).toEqual(new Set(['10:2:g:odd', '10:3:*']));
    expect(reads.articleList).toBe(false);
    // The same groups as untracked, and as groupByTag gives them (a read of every article's tags).
    expect(tagGroup(articles, 'odd')!.articles.map((item) => item.slug)).toEqual(
      group.articles.map((item) => untracked(item).slug),
    );
    const listReads = emptyReads();
    expect(
      groupByTag(trackReads(articles, {}, listReads).articles).map((item) => [item.slug, item.articles.length]),
    ).toEqual([
      ['all', 50],
      ['odd', 25],
    ]);
    expect(listReads.listFields).toEqual(new Set(['tags']));
    // Told which changed, only a change of what it read reaches the page; of a title, only if it showed it.
    const lists = (changed: string) => ({
      groupChanged: (tag: string) => changed === `g:${tag}`,
      nameChanged: (tag: string) => changed === `n:${tag}`,
      pageChanged: (page: string) => changed === `p:${page}`,
      viewChanged: (key: string) => changed === `v:${key}`,
    });
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map(), lists: lists('g:odd') })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map(), lists: lists('n:odd') })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map(), lists: lists('p:10:3:*') })).toBe(true);
    expect(
      dependsOnArticles(reads, {
        listChanged: true,
        fields: new Map([['a8', new Set(['tags'])]]),
        lists: lists('p:10:4:*'),
      }),
    ).toBe(false);
    expect(
      dependsOnArticles(reads, {
        listChanged: false,
        fields: new Map([['content/news/a23.md', new Set(['title'])]]),
        lists: lists(''),
      }),
    ).toBe(true);
    // Nothing moved (the same slugs in order, no tags changed): the groups and pages are not asked about.
    const asked: string[] = [];
    const spy = {
      groupChanged: (tag: string) => (asked.push(tag), true),
      nameChanged: (tag: string) => (asked.push(tag), true),
      pageChanged: (page: string) => (asked.push(page), true),
      viewChanged: (key: string) => (asked.push(key), true),
    };
    expect(
      dependsOnArticles(reads, {
        listChanged: false,
        fields: new Map([['a8', new Set(['title', 'markdown'])]]),
        lists: spy,
      }),
    ).toBe(false);
    expect(asked).toEqual([]);
    expect(
      dependsOnArticles(reads, { listChanged: false, fields: new Map([['a8', new Set(['tags'])]]), lists: spy }),
    ).toBe(true);
    // Not told: any change of the list or of an article's tags may have moved them.
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a8', new Set(['tags'])]]) })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map() })).toBe(true);
    expect(dependsOnArticles(reads, { listChanged: false, fields: new Map([['a8', new Set(['title'])]]) })).toBe(false);
  });

  it("is read alike by the helpers of another copy of the generator (a site's server bundle has its own)", async () => {
    const articles = Array.from({ length: 30 }, (_, n) => article(`a${n}`, { tags: n % 2 ? ['Odd'] : ['Even'] }));
    vi.resetModules();
    const copy = { ...(await import('../src/content/tags.ts')), ...(await import('../src/content/pagination.ts')) };
    vi.resetModules();
    expect(copy.tagGroup).not.toBe(tagGroup);
    const reads = emptyReads();
    const tracked = trackReads(articles, {}, reads);
    const group = copy.tagGroup(tracked.articles, 'odd')!;
    copy.listPage(group.articles, 5, '/news/tags/odd', 2);
    copy.listPage(tracked.articles, 10, '/news', 1);
    copy.groupByTag(tracked.articles);
    expect(reads.tagNames).toEqual(new Set(['odd']));
    expect(reads.listPages).toEqual(new Set(['5:2:g:odd', '10:1:*']));
    expect(reads.listFields).toEqual(new Set(['tags']));
  });

  it('tells which tag groups, names and list pages differ between two lists, as a page that read them sees them', () => {
    const articles = Array.from({ length: 45 }, (_, n) => article(`a${n}`, { tags: n % 2 ? ['Odd'] : ['Even'] }));
    const same = listChanges(articles, [...articles]);
    expect(
      same.groupChanged('odd') ||
        same.nameChanged('odd') ||
        same.pageChanged('10:1:*') ||
        same.pageChanged('10:2:g:odd'),
    ).toBe(false);
    // A new oldest article of tag Even: the pages before it, the other tag and its name are as they were.
    const older = listChanges(articles, [...articles, article('old', { tags: ['Even'] })]);
    expect(older.pageChanged('10:1:*')).toBe(false);
    expect(older.pageChanged('10:5:*')).toBe(true);
    expect(older.groupChanged('odd')).toBe(false);
    expect(older.groupChanged('even')).toBe(true);
    expect(older.pageChanged('10:1:g:even')).toBe(false);
    expect(older.nameChanged('even')).toBe(false);
    // A new newest one: every page of its list and of its tag moves; the page count shows on every page.
    const newer = listChanges(articles, [article('new', { tags: ['Odd'] }), ...articles]);
    expect(newer.pageChanged('10:5:*')).toBe(true);
    expect(newer.pageChanged('10:1:g:even')).toBe(false);
    expect(
      listChanges(articles.slice(0, 40), [article('new', { tags: ['Odd'] }), ...articles.slice(0, 40)]).pageChanged(
        '10:2:g:even',
      ),
    ).toBe(false);
    expect(listChanges(articles.slice(0, 40), articles.slice(0, 41)).pageChanged('10:1:*')).toBe(true); // 4 pages to 5
    // The group's name, as its newest article spells it; a page size that is none.
    expect(listChanges(articles, [{ ...articles[0]!, tags: ['EVEN'] }, ...articles.slice(1)]).nameChanged('even')).toBe(
      true,
    );
    expect(same.pageChanged('0:1:*')).toBe(false);
  });

  it('answers, after any edit of a list, as the texts of what a page read say, asked in any order and more than once (fast-check)', () => {
    const TAGS = ['Even', 'EVEN', 'Odd', 'odd ', 'Ünïcode', '', 'x y'];
    const tagsValue = fc.oneof(
      { weight: 6, arbitrary: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }) },
      fc.constant(undefined),
      // Not a list of texts: the groups throw, and everything counts as changed, as before.
      fc.constantFrom<unknown>('Even', [1], [null], {}),
    );
    const listOf = (count: number, tags: unknown[]) =>
      Array.from({ length: count }, (_, n) => article(`a${n}`, { tags: tags[n] as string[] }));
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('body' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('tags' as const), at: fc.nat(), tags: tagsValue }),
      fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(), tags: tagsValue }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
    );
    const apply = (
      list: Article[],
      step: fc.Arbitrary<unknown> extends never ? never : { kind: string; at: number; to?: number; tags?: unknown },
      n: number,
    ): Article[] => {
      const next = [...list];
      const at = list.length === 0 ? 0 : step.at % list.length;
      if (step.kind === 'add')
        next.splice(step.at % (list.length + 1), 0, article(`new${n}`, { tags: step.tags as string[] }));
      else if (list.length === 0) return next;
      else if (step.kind === 'body')
        next[at] = {
          ...list[at]!,
          markdown: `edit ${n}`,
          tags: Array.isArray(list[at]!.tags) ? [...list[at]!.tags!] : list[at]!.tags,
        };
      else if (step.kind === 'tags') next[at] = { ...list[at]!, tags: step.tags as string[] };
      else if (step.kind === 'move') next.splice(step.to! % list.length, 0, ...next.splice(at, 1));
      else next.splice(at, 1);
      return next;
    };
    fc.assert(
      fc.property(
        fc.array(tagsValue, { maxLength: 25 }),
        fc.array(edit, { maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        (tags, steps, asks) => {
          const before = listOf(tags.length, tags);
          const after = steps.reduce((list, step, n) => apply(list, step, n), before);
          const changes = listChanges(before, after);
          const [was, is] = [listReadTexts(before), listReadTexts(after)];
          const differs = (read: (texts: ReturnType<typeof listReadTexts>) => string | undefined) => {
            try {
              return read(was) !== read(is);
            } catch {
              return true;
            }
          };
          const slugs = ['even', 'odd', 'unicode', 'x-y', 'none'];
          const questions = [
            ...slugs.map(
              (tag) => [() => changes.groupChanged(tag), () => differs((texts) => texts.group(tag))] as const,
            ),
            ...slugs.map((tag) => [() => changes.nameChanged(tag), () => differs((texts) => texts.name(tag))] as const),
            ...['3:1:*', '3:2:*', '5:3:*', '2:1:g:even', '2:2:g:odd', '0:1:*', '3:9:*'].map(
              (page) => [() => changes.pageChanged(page), () => differs((texts) => texts.page(page))] as const,
            ),
          ];
          for (const ask of asks) {
            const [answer, expected] = questions[ask % questions.length]!;
            expect(answer()).toBe(expected());
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('records the fields a page read of each article, and whether it used the list', () => {
    const articles = [article('a'), article('b'), article('c')];
    const reads = emptyReads();
    const tracked = trackReads(articles, { site: {}, networks: [] }, reads);
    const found = tracked.articles.find((item) => item.slug === 'b')!;
    void found.html;
    void tracked.data.site;
    expect(reads.articleList).toBe(true);
    expect(reads.articleFields.get('content/news/b.md')).toEqual(new Set(['slug', 'html']));
    expect(reads.articleFields.get('content/news/a.md')).toEqual(new Set(['slug']));
    expect(reads.articleFields.has('content/news/c.md')).toBe(false);
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
            seen.add((copy as Article).file);
            void (copy as Article).title;
          } else if (original && typeof original === 'object') {
            expect(Object.keys(copy as object)).toEqual(Object.keys(original));
            for (const key of Object.keys(original))
              visit((original as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key]);
          } else expect(copy).toBe(original);
        };
        visit(entry, tracked);
        expect(new Set(reads.articleFields.keys())).toEqual(seen);
        for (const file of seen) expect(reads.articleFields.get(file)).toContain('title');
        // Nothing of the entry itself was changed.
        expect(mapArticlesIn(entry, isTracked, untracked)).toBe(entry);
      }),
    );
  });

  it("a view of the list (a locale's, with its fallback) is noted under its key, and what a page read of it changes as the view does (fast-check)", () => {
    const view = { locale: 'de', fallback: 'en' };
    const key = viewKey(view);
    const localised = (name: string, locale: string, translationKey: string, tags: string[]) =>
      article(name, { locale, translationKey, tags, file: `content/news/${locale}/${name}.md` });
    const before = [
      localised('a', 'en', 'a', ['Odd']),
      localised('b', 'de', 'a', ['Odd']),
      localised('c', 'en', 'c', ['Even']),
      localised('d', 'en', 'd', ['Odd']),
    ];
    const reads = emptyReads();
    const seen = trackReads(before, {}, reads).view(view);
    // Made once, of the articles themselves: German b stands in for English a.
    expect(seen.map((item) => untracked(item).file)).toEqual([
      'content/news/de/b.md',
      'content/news/en/c.md',
      'content/news/en/d.md',
    ]);
    expect(reads.viewLists).toEqual(new Set([key]));
    expect(reads.articleList).toBe(false);
    const paged = emptyReads();
    listPage(trackReads(before, {}, paged).view(view), 2, '/de/news', 2);
    expect(paged.listPages).toEqual(new Set([`2:2:*@${key}`]));
    const grouped = emptyReads();
    void tagGroup(trackReads(before, {}, grouped).view(view), 'odd')!.articles.length;
    expect(grouped.tagGroups).toEqual(new Set([`odd@${key}`]));
    expect(grouped.viewLists.size + paged.viewLists.size + Number(grouped.articleList || paged.articleList)).toBe(0);

    // Any edit of the list: a page that read the view whole, a page of it or one of its groups is
    // made again (in dev, and by the page cache's signatures) whenever what it read differs.
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('key', 'tags', 'body', 'add', 'remove', 'move'),
      locale: fc.constantFrom('en', 'de'),
      value: fc.constantFrom('a', 'c', 'x'),
    });
    const pages = [
      (list: readonly Article[]) => void list.length,
      (list: readonly Article[]) => void listPage(list, 2, '/de/news', 1),
      (list: readonly Article[]) => void listPage(list, 2, '/de/news', 2),
      (list: readonly Article[]) => void tagGroup(list, 'odd')?.articles.length,
      (list: readonly Article[]) => void tagGroup(list, 'even')?.name,
      (list: readonly Article[]) => void list[0],
    ];
    const shown = (list: readonly Article[], page: number) => {
      const inView = viewArticles(list, view);
      if (page === 0) return inView.map((item) => item.file).join();
      if (page < 3) return JSON.stringify(listPage(inView, 2, '/de/news', page)?.items.map((item) => item.file));
      if (page === 5) return String(inView[0]?.file);
      const group = tagGroup(inView, page === 3 ? 'odd' : 'even');
      return page === 3 ? JSON.stringify(group?.articles.map((item) => item.file)) : String(group?.name);
    };
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.nat({ max: pages.length - 1 }), (steps, page) => {
        const after = steps.reduce((list: Article[], step, n) => {
          const next = [...list];
          const at = step.at % Math.max(1, list.length);
          const old = list[at];
          if (step.kind === 'add') next.splice(at, 0, localised(`n${n}`, step.locale, step.value, ['Odd']));
          else if (!old) return next;
          else if (step.kind === 'key') next[at] = { ...old, translationKey: step.value };
          else if (step.kind === 'tags') next[at] = { ...old, tags: step.value === 'x' ? ['Even'] : ['Odd'] };
          else if (step.kind === 'body') next[at] = { ...old, markdown: `edit ${n}` };
          else if (step.kind === 'remove') next.splice(at, 1);
          else next.splice(0, 0, ...next.splice(at, 1));
          return next;
        }, before);
        const pageReads = emptyReads();
        pages[page]!(trackReads(before, {}, pageReads).view(view));
        const byFile = new Map(before.map((item) => [item.file, item]));
        const fields = new Map(
          after
            .filter((item) => byFile.has(item.file))
            .map((item) => [item.file, changedFields(byFile.get(item.file)!, item)]),
        );
        const listChanged = before.map((item) => item.file).join() !== after.map((item) => item.file).join();
        const again = dependsOnArticles(pageReads, { listChanged, fields, lists: listChanges(before, after) });
        const lines = readLines(pageReads, readSignatures({ articles: before, keys: new Map(), data: {} }));
        const kept = readsAsBefore(lines, readSignatures({ articles: after, keys: new Map(), data: {} }));
        if (shown(before, page) !== shown(after, page)) {
          expect(again).toBe(true);
          expect(kept).toBe(false);
        }
        // Bodies edited only: no view moved, and the page is kept.
        if (steps.every((step) => step.kind === 'body')) expect([again, kept]).toEqual([false, true]);
      }),
      { numRuns: 500 },
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
    expect(
      dependsOnArticles(reads, { listChanged: false, fields: new Map([['a', new Set(['html', 'markdown'])]]) }),
    ).toBe(false);
  });
  it('matches any list change for a page that used the list', () => {
    expect(dependsOnArticles(reads, { listChanged: true, fields: new Map() })).toBe(true);
  });
});

describe('changedFields', () => {
  it('names the fields that differ', () => {
    expect(changedFields(article('a', { tags: ['x'] }), article('a', { title: 'New', tags: ['x', 'y'] }))).toEqual(
      new Set(['title', 'tags']),
    );
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
