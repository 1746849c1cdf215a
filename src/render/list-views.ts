// The lists of articles a page may see besides the whole list: one collection's, and with i18n one
// locale's. Each is made once per list of a run, from the articles themselves (never through a
// page's tracking), and named by a key a page's reads of it are noted under (dependencies.ts).
import type { Article } from '../content/article.ts';

/** Which articles of the list: one collection's (with more than one), one locale's (with its fallback's). */
export interface ListView {
  collection?: string;
  locale?: string;
  /** The locale whose articles stand in for those the locale lacks. */
  fallback?: string;
}

/** The name of a view in a page's reads: its parts, each encoded (no `@`, `/` or `:` in it). */
export const viewKey = (view: ListView): string =>
  [view.collection, view.locale, view.fallback].map((part) => encodeURIComponent(part ?? '')).join('/');

function parseViewKey(key: string): ListView {
  const [collection, locale, fallback] = key.split('/').map((part) => decodeURIComponent(part));
  return {
    ...(collection ? { collection } : {}),
    ...(locale ? { locale } : {}),
    ...(fallback ? { fallback } : {}),
  };
}

/**
 * A locale's articles, in the list's order: its own, then (with a fallback) each article of the
 * fallback locale whose translation key none of its own has, in its place in the order.
 */
function inLocale(articles: readonly Article[], locale: string, fallback: string | undefined): Article[] {
  const keys = fallback
    ? new Set(articles.filter((article) => article.locale === locale).map((article) => article.translationKey))
    : undefined;
  return articles.filter(
    (article) =>
      article.locale === locale ||
      (article.locale === fallback && keys !== undefined && !keys.has(article.translationKey)),
  );
}

const views = new WeakMap<readonly Article[], Map<string, readonly Article[]>>();

/** The articles of a view of a list (untracked articles), made once per list and view. */
export function viewArticles(articles: readonly Article[], view: ListView): readonly Article[] {
  let made = views.get(articles);
  if (!made) views.set(articles, (made = new Map()));
  const key = viewKey(view);
  let list = made.get(key);
  if (!list) {
    const own = view.collection === undefined ? articles : articles.filter((a) => a.collection === view.collection);
    // Not frozen, as the list itself is not: a page's tracked list is a proxy of it.
    made.set(key, (list = view.locale === undefined ? own : inLocale(own, view.locale, view.fallback)));
  }
  return list;
}

/**
 * The list a read names (`*`, or `*@<view>` a view of it) and what is left of the name: a tag's
 * slug or `*` (tags' slugs hold no `@`).
 */
export function listNamed(articles: readonly Article[], name: string): { list: readonly Article[]; name: string } {
  const at = name.indexOf('@');
  if (at < 0) return { list: articles, name };
  return { list: viewArticles(articles, parseViewKey(name.slice(at + 1))), name: name.slice(0, at) };
}

/** A name read of a view (`*`, a tag's slug) as the page's reads note it. */
export const inView = (name: string, key: string | undefined): string => (key === undefined ? name : `${name}@${key}`);
