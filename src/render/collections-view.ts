// What site code receives as `collections`: each collection's entries, worked out when first read.
import type { Article } from '../content/article.ts';
import type { DefaultCollections, ResolvedCollection } from '../content/collections.ts';

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
): DefaultCollections {
  const content = collections.filter((collection) => collection.type === 'content');
  const view: Record<string, DefaultCollections[string]> = {};
  for (const collection of collections) {
    let entries: DefaultCollections[string] | undefined;
    const made = (): DefaultCollections[string] => {
      if (collection.type === 'data') return (data[collection.name] as DefaultCollections[string] | undefined) ?? [];
      if (content.length === 1) return articles;
      return Object.freeze(articles.filter((article) => article.collection === collection.name));
    };
    Object.defineProperty(view, collection.name, { enumerable: true, get: () => (entries ??= made()) });
  }
  return Object.freeze(view);
}
