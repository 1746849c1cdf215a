import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listPage, pageCount, pagePath, paginate } from '../src/content/pagination.ts';

describe('paginate', () => {
  it('puts every item on exactly one page, in order, each page full but the last', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (items, size) => {
        const pages = paginate(items, size, '/news');
        expect(pages.flatMap((page) => page.items)).toEqual(items);
        expect(pages.length).toBe(Math.max(1, Math.ceil(items.length / size)));
        pages.forEach((page, index) => {
          expect(page.number).toBe(index + 1);
          expect(page.total).toBe(pages.length);
          if (index < pages.length - 1) expect(page.items).toHaveLength(size);
          else expect(page.items.length).toBeLessThanOrEqual(size);
        });
      }),
    );
  });

  it('links each page to its neighbours and nothing beyond the ends', () => {
    fc.assert(
      fc.property(
        fc.nat(250),
        fc.integer({ min: 1, max: 25 }),
        fc.constantFrom('/news', '/news/tags/eth', '/'),
        (count, size, base) => {
          const pages = paginate(
            Array.from({ length: count }, (_, i) => i),
            size,
            base,
          );
          expect(pages[0]!.path).toBe(base);
          expect(pages[0]!.prev).toBeUndefined();
          expect(pages.at(-1)!.next).toBeUndefined();
          for (let i = 0; i < pages.length - 1; i++) {
            expect(pages[i]!.next).toBe(pages[i + 1]!.path);
            expect(pages[i + 1]!.prev).toBe(pages[i]!.path);
          }
          expect(new Set(pages.map((page) => page.path)).size).toBe(pages.length);
        },
      ),
    );
  });

  it('listPage gives the same page as paginate, and nothing for a page that does not exist', () => {
    fc.assert(
      fc.property(
        fc.nat(120),
        fc.integer({ min: 1, max: 15 }),
        fc.oneof(fc.integer({ min: -5, max: 20 }), fc.double()),
        (count, size, number) => {
          const items = Array.from({ length: count }, (_, i) => i);
          const pages = paginate(items, size, '/news');
          const page = listPage(items, size, '/news', number);
          if (Number.isInteger(number) && number >= 1 && number <= pages.length)
            expect(page).toEqual(pages[number - 1]);
          else expect(page).toBeUndefined();
        },
      ),
    );
  });

  it('has one empty first page for an empty list, and refuses a page size below 1', () => {
    expect(paginate([], 10, '/news')).toEqual([
      { number: 1, total: 1, items: [], path: '/news', prev: undefined, next: undefined },
    ]);
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => pageCount(3, size)).toThrow(/Page size/);
  });

  it('writes page paths as /base/page/N from page 2 on', () => {
    expect([1, 2, 10].map((n) => pagePath('/news', n))).toEqual(['/news', '/news/page/2', '/news/page/10']);
    expect(pagePath('/', 3)).toBe('/page/3');
  });
});
