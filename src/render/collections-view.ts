// What site code receives as `collections`: each collection's entries, worked out when first read.
import type { Article } from '../content/article.ts';
import { viewArticles, type ListView } from './list-views.ts';
import { firstContentCollection, type DefaultCollections, type ResolvedCollection } from '../content/collections.ts';

/** A locale's view of the articles: its own, and with a fallback those of its fallback locale not translated. */
export interface LocaleView {
  locale: string;
  fallback?: string;
}

/** The lists a page reads from: the whole list, and a view of it (tracked, when the page's reads are). */
export interface ListSource {
  articles: readonly Article[];
  view(view: ListView): readonly Article[];
}

/** The lists of a run as they are, untracked. */
export const untrackedLists = (articles: readonly Article[]): ListSource => ({
  articles,
  view: (view) => viewArticles(articles, view),
});

/**
 * What site code receives of the articles: `articles`, those of the first content collection
 * (the news, when the site declares none), and `collections`, each collection's entries.
 */
export function siteLists(
  collections: readonly ResolvedCollection[],
  lists: ListSource,
  data: Record<string, unknown>,
  /** With `i18n`, the locale whose articles a page or a route's entries see. */
  locale?: LocaleView,
): { articles: readonly Article[]; collections: DefaultCollections } {
  const view = collectionsView(collections, lists, data, locale);
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
 * one content collection its entries are the article list itself (in a locale, that locale's view).
 */
export function collectionsView(
  collections: readonly ResolvedCollection[],
  lists: ListSource,
  data: Record<string, unknown>,
  locale?: LocaleView,
): DefaultCollections {
  const content = collections.filter((collection) => collection.type === 'content');
  const view: Record<string, DefaultCollections[string]> = {};
  for (const collection of collections) {
    let entries: DefaultCollections[string] | undefined;
    const made = (): DefaultCollections[string] => {
      if (collection.type === 'data') return (data[collection.name] as DefaultCollections[string] | undefined) ?? [];
      const view: ListView = {
        ...(content.length === 1 ? {} : { collection: collection.name }),
        ...(locale && collection.i18n ? locale : {}),
      };
      return view.collection === undefined && view.locale === undefined ? lists.articles : lists.view(view);
    };
    Object.defineProperty(view, collection.name, { enumerable: true, get: () => (entries ??= made()) });
  }
  return Object.freeze(view);
}
