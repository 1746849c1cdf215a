// The contract between the list helpers in src/content/ (groupByTag, tagGroup, listPage) and the
// read tracking in src/render/dependencies.ts. A tracked list answers LIST_READS; a helper reads it
// untracked through listReadsOf and hands back what the page sees through `view`, tracked.
//
// LIST_READS is a string, not a symbol: the helpers run from copies of this module (the site's
// bundle, lib/index.js) while the tracking runs in the CLI's, and a string is alike in every copy.

/** What a read gives a helper: the items untracked, and the selection it hands on as the page sees it. */
export interface ListAccess<Item> {
  raw: readonly Item[];
  /** A selection of the raw items, as the page must see them: each item read is tracked. */
  view(selection: readonly Item[]): Item[];
}

/** The reads a tracked list answers, each noted as the page's before it gives the items. */
export interface ListReads<Item> {
  /** Some fields of every item at once (a tag's page reads every article's `tags`): one read for the list. */
  fields?(fields: readonly string[]): ListAccess<Item>;
  /** One tag's group only (`tagGroup`): its name, and its members in order when the page reads them. */
  group?(slug: string): ListAccess<Item>;
  /** One page of the list (`listPage`, `size` a page, page `number`): its items in order and the page count. */
  page?(size: number, number: number): ListAccess<Item>;
}

/** The property a tracked list answers with its ListReads. */
export const LIST_READS = 'ssg:listReads';

/** The reads a list answers, or undefined for a list read as it is. */
export function listReadsOf<Item>(list: readonly Item[]): ListReads<Item> | undefined {
  const reads = (list as unknown as Record<string, unknown>)[LIST_READS];
  return reads && typeof reads === 'object' ? (reads as ListReads<Item>) : undefined;
}

/** A list read as it is: nothing noted, and a selection handed on as a copy. */
export function untrackedAccess<Item>(list: readonly Item[]): ListAccess<Item> {
  return { raw: list, view: (selection) => [...selection] };
}
