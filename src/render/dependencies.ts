import type { Article } from '../content/article.ts';
import { pageText } from '../content/pagination.ts';
import { groupMembers } from '../content/tags.ts';
import { LIST_READS, type ListAccess, type ListReads } from '../base/list-reads.ts';
import { inView, listNamed, viewArticles, viewKey, type ListView } from './list-views.ts';

/** What one page read while it rendered: the answer to "which pages depend on this change". */
export interface PageReads {
  /** The page looked at the list itself (its length, order or members), not only at one article. */
  articleList: boolean;
  /** The views of the list (a locale's articles, a collection's: list-views.ts) the page read whole, by key. */
  viewLists: Set<string>;
  /** Fields read of each article, by slug. */
  articleFields: Map<string, Set<string>>;
  /** Top-level names of `data` read (`site`, `networks`, …). */
  dataKeys: Set<string>;
  /**
   * Fields read of every article of the list at once (a tag's page reads every article's `tags`
   * to find its own): one read for the whole list instead of one an article, so a page is not
   * as costly to track as the list is long.
   */
  listFields: Set<string>;
  /**
   * Tags whose group the page read (`tagGroup`: its name, and its articles in order): a tag's page
   * depends on its own group, not on the whole list, so a new article leaves other tags' pages be.
   * A group of a view of the list is `<tag>@<view>`.
   */
  tagGroups: Set<string>;
  /** Tags whose group's name the page read (a tag's page that shows its articles a page at a time: see listPages). */
  tagNames: Set<string>;
  /**
   * Pages of a list the page read through `listPage`, as `<size>:<number>:<list>` (the list `*`,
   * `g:<tag>` a tag's group, either with `@<view>` when of a view): that page's articles in order and the list's page count, not the
   * whole list, so a new article leaves the pages before its place be.
   */
  listPages: Set<string>;
}

export function emptyReads(): PageReads {
  return {
    articleList: false,
    viewLists: new Set(),
    articleFields: new Map(),
    dataKeys: new Set(),
    listFields: new Set(),
    tagGroups: new Set(),
    tagNames: new Set(),
    listPages: new Set(),
  };
}

// Each tracking proxy and the article behind it: what site code kept of a tracked list (a route's
// entries) is handed on as the articles themselves.
const targets = new WeakMap<object, Article>();

/** The article behind a tracking proxy, or the value as it is. */
export function untracked<T>(value: T): T {
  return ((value && typeof value === 'object' && targets.get(value)) || value) as T;
}

/** Whether a value is a tracking proxy of an article. */
export const isTracked = (value: object): boolean => targets.has(value);

/**
 * An entry value with each article in it replaced: the value itself, or inside lists and plain
 * objects at any depth (a tag's group, a list of related articles). Lists and objects are copied
 * only when something in them was replaced; anything else (a Map, a class instance) is kept as is.
 */
export function mapArticlesIn(
  value: unknown,
  isArticle: (value: object) => boolean,
  replace: (article: Article) => unknown,
  inProgress = new Set<object>(),
): unknown {
  if (!value || typeof value !== 'object') return value;
  if (isArticle(value)) return replace(value as Article);
  const prototype = Object.getPrototypeOf(value) as unknown;
  const plain = Array.isArray(value) || prototype === Object.prototype || prototype === null;
  if (!plain || inProgress.has(value)) return value;
  inProgress.add(value);
  // Copied at the first item that changes: most entries (a slug, a page number) hold no article.
  let copy: Record<string, unknown> | unknown[] | undefined;
  const keys = Object.keys(value);
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    const next = mapArticlesIn(item, isArticle, replace, inProgress);
    if (next === item) continue;
    copy ??= Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
    (copy as Record<string, unknown>)[key] = next;
  }
  inProgress.delete(value);
  return copy ?? value;
}

function trackArticle(article: Article, reads: PageReads): Article {
  const proxy = new Proxy(article, {
    get(target, key, receiver) {
      if (typeof key === 'string') {
        let fields = reads.articleFields.get(target.file);
        if (!fields) reads.articleFields.set(target.file, (fields = new Set()));
        fields.add(key);
      }
      return Reflect.get(target, key, receiver);
    },
  });
  targets.set(proxy, article);
  return proxy;
}

const articleSets = new WeakMap<readonly Article[], ReadonlySet<unknown>>();

/** The articles as a set, made once per list: every page of a build asks, and lists are long. */
function articleSet(articles: readonly Article[]): ReadonlySet<unknown> {
  let set = articleSets.get(articles);
  if (!set) articleSets.set(articles, (set = new Set(articles)));
  return set;
}

/** The lists a page sees, tracked: the whole list, and each view of it made when first asked for. */
export interface TrackedLists {
  articles: readonly Article[];
  view(view: ListView): readonly Article[];
}

/**
 * Wraps the articles and data a page receives so that rendering records what it used. Reading
 * `articles.length` or iterating marks the list; reading `article.title` marks that field. A view
 * of the list (`view`) is made of the articles themselves, once per run, and its reads are noted
 * under its key.
 */
export function trackReads(
  articles: readonly Article[],
  data: Record<string, unknown>,
  reads: PageReads,
  entry: Record<string, unknown> = {},
): TrackedLists & { data: Record<string, unknown>; entry: Record<string, unknown> } {
  // An article handed to the page through its route entry (itself, or in a list or an object it
  // holds: a tag's group) is tracked like one read from the list.
  const known = articleSet(articles);
  const tracked = new Map<Article, Article>();
  const track = (article: Article) => {
    let proxy = tracked.get(article);
    if (!proxy) tracked.set(article, (proxy = trackArticle(article, reads)));
    return proxy;
  };
  const trackedEntry = mapArticlesIn(entry, (value) => known.has(value), track) as Record<string, unknown>;
  const views = new Map<string, readonly Article[]>();
  const trackedData = new Proxy(data, {
    get(target, key, receiver) {
      if (typeof key === 'string') reads.dataKeys.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
  return {
    articles: trackedList(articles, reads, track),
    view(view) {
      const key = viewKey(view);
      let list = views.get(key);
      if (!list) views.set(key, (list = trackedList(viewArticles(articles, view), reads, track, key)));
      return list;
    },
    data: trackedData,
    entry: trackedEntry,
  };
}

/** Notes a read of the list's (`key`: a view's) members and order. */
function readWhole(reads: PageReads, key: string | undefined): void {
  if (key === undefined) reads.articleList = true;
  else reads.viewLists.add(key);
}

/** A list whose items are tracked when read; its length, order and members noted as the list's (`key`: a view's). */
function trackedList(
  target: readonly Article[],
  reads: PageReads,
  track: (article: Article) => Article,
  key?: string,
): readonly Article[] {
  const whole = () => readWhole(reads, key);
  return new Proxy(target as Article[], {
    get(target, name, receiver) {
      // An item by its place (`articles[0]`, the latest): which article is there is the list's order.
      if (typeof name === 'string' && /^\d+$/.test(name)) {
        whole();
        const article = target[Number(name)];
        return article && track(article);
      }
      if (name === LIST_READS) return listReads(target, reads, track, key);
      if (name === 'length' || name === Symbol.iterator) whole();
      return Reflect.get(target, name, receiver);
    },
    ...membersRead(whole),
  });
}

/**
 * A selection of articles whose items are tracked when read (by index, or by iterating). Taken
 * from a list-wide read, its length and order mark nothing more; a tag's group (`of`) notes a
 * read of its members when read whole, or of one page of it when `listPage` asks for that.
 */
function trackedSelection(
  selection: readonly Article[],
  track: (article: Article) => Article,
  of?: { group: string; reads: PageReads },
): Article[] {
  // A tag's group read as a whole (its length, an item, every item, its keys): its members and order.
  const whole = () => of?.reads.tagGroups.add(of.group);
  return new Proxy(selection as Article[], {
    get(target, key, receiver) {
      if (of && key === LIST_READS)
        return { page: pageAccess(target, `g:${of.group}`, of.reads, track) } satisfies ListReads<Article>;
      const item = typeof key === 'string' && /^\d+$/.test(key);
      if (item || key === 'length' || key === Symbol.iterator) whole();
      if (item) {
        const article = target[Number(key)];
        return article && track(article);
      }
      return Reflect.get(target, key, receiver);
    },
    ...membersRead(whole),
  });
}

/** The traps by which a list is read whole without a `get` (`Object.keys`, `for…in`, `i in list`): `read` notes it. */
function membersRead(read: () => void): Pick<ProxyHandler<Article[]>, 'ownKeys' | 'has' | 'getOwnPropertyDescriptor'> {
  return {
    ownKeys(target) {
      read();
      return Reflect.ownKeys(target);
    },
    has(target, key) {
      if (key !== LIST_READS) read();
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      read();
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  };
}

/** What a page's list answers to the helpers that read it (src/base/list-reads.ts), each read noted in `reads`. */
function listReads(
  target: readonly Article[],
  reads: PageReads,
  track: (article: Article) => Article,
  key: string | undefined,
): ListReads<Article> {
  return {
    fields: (fields) => {
      readWhole(reads, key);
      for (const field of fields) reads.listFields.add(field);
      // A copy: the selection may be shared by every page of the list.
      return { raw: target, view: (selection) => trackedSelection([...selection], track) };
    },
    group: (slug) => {
      const group = inView(slug, key);
      reads.tagNames.add(group);
      // Its members are read only when the page reads the group as a whole, not a page of it.
      return { raw: target, view: (selection) => trackedSelection([...selection], track, { group, reads }) };
    },
    page: pageAccess(target, inView('*', key), reads, track),
  };
}

/** One page of a list (`*`) or of a tag's group (`g:<tag>`), the read noted. */
function pageAccess(target: readonly Article[], list: string, reads: PageReads, track: (article: Article) => Article) {
  return (size: number, number: number): ListAccess<Article> => {
    reads.listPages.add(`${size}:${number}:${list}`);
    return { raw: target, view: (selection) => trackedSelection([...selection], track) };
  };
}

/** The fields that differ between two versions of one article. */
export function changedFields(before: Article, after: Article): Set<string> {
  const fields = new Set<string>();
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof Article>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) fields.add(key);
  }
  return fields;
}

/** How the article list changed, as dependsOnArticles asks: `lists`, when known, for the reads of tag groups and list pages. */
export interface ArticleChange {
  listChanged: boolean;
  fields: ReadonlyMap<string, ReadonlySet<string>>;
  lists?: {
    /** Whether a tag's group (its name, its articles in order) differs. */
    groupChanged(tag: string): boolean;
    nameChanged(tag: string): boolean;
    /** Whether a page of a list (`<size>:<number>:<list>`, see PageReads.listPages) differs. */
    pageChanged(page: string): boolean;
    /** Whether a view of the list (its key: PageReads.viewLists) has other members or order. */
    viewChanged(key: string): boolean;
  };
}

/**
 * Whether a page that read `reads` must be rendered again after these article changes. Without
 * `lists`, a page that read a tag's group or a page of a list is made again whenever the list or
 * any article's tags changed.
 */
export function dependsOnArticles(reads: PageReads, change: ArticleChange): boolean {
  if (change.listChanged && reads.articleList) return true;
  const { lists } = change;
  // A view is made of the list's order, each article's file and its translation key alone.
  const keyChanged = () => [...change.fields.values()].some((fields) => fields.has('translationKey'));
  if (reads.viewLists.size > 0 && (change.listChanged || keyChanged()))
    if (!lists || [...reads.viewLists].some(lists.viewChanged)) return true;
  if (reads.tagGroups.size > 0 || reads.tagNames.size > 0 || reads.listPages.size > 0) {
    // Groups and pages are made of the slugs in order and each article's tags (and, in a view, its
    // translation key) alone: unless one of those changed, none moved (a body or title edit). Told
    // how (`lists`), only those read count.
    const moved =
      change.listChanged ||
      [...change.fields.values()].some((fields) => fields.has('tags') || fields.has('translationKey'));
    if (
      moved &&
      (!lists ||
        [...reads.tagGroups].some(lists.groupChanged) ||
        [...reads.tagNames].some(lists.nameChanged) ||
        [...reads.listPages].some(lists.pageChanged))
    )
      return true;
  }
  for (const [file, fields] of change.fields) {
    const read = reads.articleFields.get(file);
    if (read && [...fields].some((field) => read.has(field))) return true;
    if (reads.listFields.size > 0 && [...fields].some((field) => reads.listFields.has(field))) return true;
  }
  return false;
}

/**
 * What a page that read a tag's group, its name, a page of a list or a view whole saw of it, for
 * one list of articles (undefined: no such group, or a page size that is none). A name with
 * `@<view>` is read of that view of the list. Two lists give the same text exactly when such a
 * page reads the same.
 */
export function listReadTexts(articles: readonly Article[]) {
  const groups = new Map<readonly Article[], ReturnType<typeof groupMembers>>();
  const slugs = new Map<readonly Article[], string[]>();
  const groupOf = (tag: string) => {
    const { list, name } = listNamed(articles, tag);
    let members = groups.get(list);
    if (!members) groups.set(list, (members = groupMembers(list)));
    return members.get(name);
  };
  const slugsOf = (name: string) => {
    const { list } = listNamed(articles, name);
    let files = slugs.get(list);
    if (!files) slugs.set(list, (files = list.map((article) => article.file)));
    return files;
  };
  return {
    group: (tag: string) => {
      const group = groupOf(tag);
      return group && [group.name, ...group.slugs].join('\0');
    },
    name: (tag: string) => groupOf(tag)?.name,
    /** The members of the list (`*`) or a view (`*@<view>`), in order. */
    list: (name: string) => slugsOf(name).join('\0'),
    page: (read: string) => {
      const [size, number, ...rest] = read.split(':');
      const list = rest.join(':');
      const keys =
        list === '*' || list.startsWith('*@')
          ? slugsOf(list)
          : list.startsWith('g:')
            ? (groupOf(list.slice(2))?.slugs ?? [])
            : undefined;
      try {
        return keys && pageText(keys, Number(size), Number(number));
      } catch {
        return undefined; // a page size that is none: listPage throws too
      }
    },
  };
}

/**
 * How the tag groups and list pages a page may have read differ between two lists of articles;
 * each answer worked out when first asked, once (many pages read one group's name).
 */
export function listChanges(
  before: readonly Article[],
  after: readonly Article[],
): NonNullable<ArticleChange['lists']> {
  const [was, is] = [listReadTexts(before), listReadTexts(after)];
  // A tag that is no text makes the groups throw: everything counts as changed (and fails as a build fails).
  const differs = (read: (texts: ReturnType<typeof listReadTexts>) => string | undefined) => {
    try {
      return read(was) !== read(is);
    } catch {
      return true;
    }
  };
  const answers = new Map<string, boolean>();
  const once = (key: string, read: (texts: ReturnType<typeof listReadTexts>) => string | undefined) => {
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = differs(read)));
    return answer;
  };
  return {
    groupChanged: (tag) => once(`g:${tag}`, (texts) => texts.group(tag)),
    nameChanged: (tag) => once(`n:${tag}`, (texts) => texts.name(tag)),
    pageChanged: (page) => once(`p:${page}`, (texts) => texts.page(page)),
    viewChanged: (key) => once(`v:${key}`, (texts) => texts.list(`*@${key}`)),
  };
}
