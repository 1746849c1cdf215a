// Splitting a long list into numbered pages: `/news`, `/news/page/2`, …
import { listReadsOf } from '../base/list-reads.ts';

/** One page of a paginated list. */
export interface ListPage<T> {
  /** 1-based. */
  number: number;
  /** How many pages the list has (at least 1, even when it is empty). */
  total: number;
  items: T[];
  /** The URL of this page, and of the pages before and after it when there are any. */
  path: string;
  prev?: string;
  next?: string;
}

/** `/news` for page 1, `/news/page/N` after it; a base of `/` gives `/page/N`. */
export function pagePath(base: string, number: number): string {
  if (number <= 1) return base;
  return `${base.replace(/\/+$/, '')}/page/${number}`;
}

/** How many pages `count` items fill at `size` per page (an empty list still has its first page). */
export function pageCount(count: number, size: number): number {
  checkSize(size);
  return Math.max(1, Math.ceil(count / size));
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`Page size must be a whole number of at least 1, not ${size}.`);
}

/** Every page of `items` in order, `size` per page, each item on exactly one page. */
export function paginate<T>(items: readonly T[], size: number, base: string): ListPage<T>[] {
  const total = pageCount(items.length, size);
  return Array.from({ length: total }, (_, index) => pageOf(items, size, base, index + 1, total));
}

/**
 * Page `number` of `items` only, or undefined when the list has no such page. A tracked list (or
 * a tag's group from one) notes the read of this page alone (src/base/list-reads.ts): the page then
 * depends on what this page shows, not on the whole list.
 */
export function listPage<T>(items: readonly T[], size: number, base: string, number: number): ListPage<T> | undefined {
  const access = listReadsOf(items)?.page?.(size, number);
  if (!access) return pageOfList(items, size, base, number);
  const page = pageOfList(access.raw, size, base, number);
  return page && { ...page, items: access.view(page.items) };
}

/**
 * What page `number` of a list shows of it, as a text (its page count and the keys of its items):
 * the same for two lists exactly when listPage gives that page the same items and count.
 */
export function pageText(keys: readonly string[], size: number, number: number): string {
  const total = pageCount(keys.length, size);
  if (!Number.isInteger(number) || number < 1 || number > total) return `${total}`;
  return [total, ...keys.slice((number - 1) * size, number * size)].join('\0');
}

function pageOfList<T>(items: readonly T[], size: number, base: string, number: number): ListPage<T> | undefined {
  const total = pageCount(items.length, size);
  if (!Number.isInteger(number) || number < 1 || number > total) return undefined;
  return pageOf(items, size, base, number, total);
}

function pageOf<T>(items: readonly T[], size: number, base: string, number: number, total: number): ListPage<T> {
  return {
    number,
    total,
    items: items.slice((number - 1) * size, number * size),
    path: pagePath(base, number),
    prev: number > 1 ? pagePath(base, number - 1) : undefined,
    next: number < total ? pagePath(base, number + 1) : undefined,
  };
}
