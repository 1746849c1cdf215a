// What site code receives as `collections`: each collection's entries, worked out when first read.
import type { Article } from '../content/article.ts';
import { untracked } from './dependencies.ts';
import { firstContentCollection, type DefaultCollections, type ResolvedCollection } from '../content/collections.ts';

/** A locale's view of the articles: its own, and with a fallback those of its fallback locale not translated. */
export interface LocaleView {
  locale: string;
  fallback?: string;
}

/**
 * A locale's articles, in the list's order: its own, then (with a fallback) each article of the
 * fallback locale whose translation key none of its own has, in its place in the order.
 */
function inLocale(articles: readonly Article[], { locale, fallback }: LocaleView): readonly Article[] {
  // An article's locale is its file's folder: it changes only as the list does (a file moved), so
  // it is read untracked, or every page would depend on every article. Its key (front matter) is
  // read as the page's when a fallback lists articles by it.
  const localeOf = (article: Article) => untracked(article).locale;
  const keys = fallback
    ? new Set(articles.filter((article) => localeOf(article) === locale).map((article) => article.translationKey))
    : undefined;
  return Object.freeze(
    articles.filter(
      (article) =>
        localeOf(article) === locale ||
        (localeOf(article) === fallback && keys !== undefined && !keys.has(article.translationKey)),
    ),
  );
}

/**
 * What site code receives of the articles: `articles`, those of the first content collection
 * (the news, when the site declares none), and `collections`, each collection's entries.
 */
export function siteLists(
  collections: readonly ResolvedCollection[],
  articles: readonly Article[],
  data: Record<string, unknown>,
  /** With `i18n`, the locale whose articles a page or a route's entries see. */
  locale?: LocaleView,
): { articles: readonly Article[]; collections: DefaultCollections } {
  const view = collectionsView(collections, articles, data, locale);
  const first = firstContentCollection(collections);
  // Read when asked: a page that never reads `articles` does not depend on the list.
  let primary: readonly Article[] | undefined;
  return {
    get articles() {
      return (primary ??= first ? (view[first.name] as readonly Article[]) : Object.freeze([]));
    },
    collections: view,
  };
}

/**
 * The entries of each collection, by name, from the published articles and the data (where a
 * data collection's entries are, under its name). Each is made when a page first reads it, from
 * the lists it was given: read through the tracked ones, a page's reads are noted as usual. With
 * one content collection its entries are the article list itself.
 */
export function collectionsView(
  collections: readonly ResolvedCollection[],
  articles: readonly Article[],
  data: Record<string, unknown>,
  locale?: LocaleView,
): DefaultCollections {
  const content = collections.filter((collection) => collection.type === 'content');
  const view: Record<string, DefaultCollections[string]> = {};
  for (const collection of collections) {
    let entries: DefaultCollections[string] | undefined;
    const made = (): DefaultCollections[string] => {
      if (collection.type === 'data') return (data[collection.name] as DefaultCollections[string] | undefined) ?? [];
      const own =
        content.length === 1 ? articles : articles.filter((article) => article.collection === collection.name);
      if (locale && collection.i18n) return inLocale(own, locale);
      return content.length === 1 ? own : Object.freeze(own);
    };
    Object.defineProperty(view, collection.name, { enumerable: true, get: () => (entries ??= made()) });
  }
  return Object.freeze(view);
}
