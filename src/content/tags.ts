// Article tags as URL segments: `Releases & Notes` → `releases-notes`.
import type { Article } from './article.ts';
import { catalogueError, type ErrorDetails, type SsgError } from '../errors/errors.ts';
import { listReadsOf, untrackedAccess, type ListAccess } from '../base/list-reads.ts';

/** Long enough for any real tag; keeps file names and URLs reasonable. */
const MAX_SLUG_LENGTH = 60;

/**
 * The URL segment of a tag: lowercase ASCII letters and digits joined by single hyphens, accents
 * folded (`Zürich` → `zurich`). Empty when nothing of the tag survives (`!!!`, `ツ`).
 */
export function tagSlug(tag: string): string {
  let slug = slugs.get(tag);
  if (slug === undefined) {
    // Bounded: a site has a few hundred tags; a runaway list only costs the memory of this many.
    if (slugs.size >= 10_000) slugs.clear();
    slugs.set(tag, (slug = slugOfTag(tag)));
  }
  return slug;
}

// Every list page and tag page asks for the slugs of every article's tags: each worked out once.
const slugs = new Map<string, string>();

function slugOfTag(tag: string): string {
  return tag
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
}

/** The articles of one tag, newest first as the list they came from. */
export interface TagGroup {
  slug: string;
  /** The tag as the newest article that uses it spells it. */
  name: string;
  articles: Article[];
}

/**
 * A page's list is read once for every article's tags (src/base/list-reads.ts): then the groups are
 * worked out once per list, not once per page, and handed back tracked.
 */
function tagsAccess(articles: readonly Article[]): ListAccess<Article> {
  return listReadsOf(articles)?.fields?.(['tags']) ?? untrackedAccess(articles);
}

/** The same for one tag's group: the page notes that it read that group only (its name, members and order). */
function groupAccess(articles: readonly Article[], slug: string): ListAccess<Article> {
  return listReadsOf(articles)?.group?.(slug) ?? tagsAccess(articles);
}

// Every tag's group, by slug, once per list of articles (a build's pages share one list).
const groupsOf = new WeakMap<readonly Article[], Map<string, TagGroup>>();

function groupsBySlug(articles: readonly Article[]): Map<string, TagGroup> {
  let groups = groupsOf.get(articles);
  if (groups) return groups;
  groups = new Map();
  for (const article of articles) {
    for (const slug of new Set(articleTagSlugs(article))) {
      let group = groups.get(slug);
      if (!group) groups.set(slug, (group = { slug, name: tagNameIn(article, slug), articles: [] }));
      group.articles.push(article);
    }
  }
  groupsOf.set(articles, groups);
  return groups;
}

/**
 * Every tag of the articles, by slug, in slug order. Tags spelled differently but with the same
 * slug (`Release`, `release`) are one tag. A tag that is not text, or has no slug, stops the
 * build naming the article's file.
 */
export function groupByTag(articles: readonly Article[]): TagGroup[] {
  const { raw, view } = tagsAccess(articles);
  return [...groupsBySlug(raw).values()]
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((group) => ({ ...group, articles: view(group.articles) }));
}

/**
 * One tag's group, as `groupByTag` has it: for a tag's own page. Undefined when no article has
 * the tag. Every article's tags are still checked.
 */
export function tagGroup(articles: readonly Article[], slug: string): TagGroup | undefined {
  const { raw, view } = groupAccess(articles, slug);
  const group = groupsBySlug(raw).get(slug);
  return group && { ...group, articles: view(group.articles) };
}

/** Each tag's group by slug as `tagGroup` gives it: its name and its articles (by file), in order. */
export function groupMembers(articles: readonly Article[]): Map<string, { name: string; slugs: string[] }> {
  return new Map(
    [...groupsBySlug(articles)].map(([slug, group]) => [
      slug,
      { name: group.name, slugs: group.articles.map((article) => article.file) },
    ]),
  );
}

/** The slugs of an article's tags, in its order; throws `TagInvalid` naming the file. */
export function articleTagSlugs(article: Article): string[] {
  const tags: unknown = article.tags;
  if (tags === undefined) return [];
  if (!Array.isArray(tags)) throw tagError(article, ['notAList', tags]);
  return tags.map((tag: unknown) => {
    if (typeof tag !== 'string') throw tagError(article, ['notText', tag]);
    const slug = tagSlug(tag);
    if (slug === '') throw tagError(article, ['noLetters', tag]);
    return slug;
  });
}

function tagNameIn(article: Article, slug: string): string {
  return (article.tags ?? []).find((tag) => tagSlug(tag) === slug)!.trim();
}

function tagError(article: Article, why: ErrorDetails<'TagInvalid'>): SsgError {
  return catalogueError('TagInvalid', why, { file: article.file });
}
