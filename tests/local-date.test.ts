import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../site/dates.ts';
import showLocalDate from '../site/islands/local-date.client.ts';

const calendarDay = fc
  .date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('formatDate', () => {
  const zone = process.env.TZ;
  // West of Greenwich: a calendar day read as midnight UTC would show as the day before.
  beforeAll(() => void (process.env.TZ = 'Pacific/Honolulu'));
  afterAll(() => void (zone === undefined ? delete process.env.TZ : (process.env.TZ = zone)));

  it('keeps a calendar day (YYYY-MM-DD) that day in every time zone', () => {
    fc.assert(
      fc.property(calendarDay, (day) => {
        const [year, month, date] = day.split('-').map(Number) as [number, number, number];
        const monthName = new Date(Date.UTC(2000, month - 1, 15)).toLocaleString('en-GB', {
          month: 'long',
          timeZone: 'UTC',
        });
        expect(formatDate(day, 'en-GB')).toBe(`${date} ${monthName} ${year}`);
      }),
      { numRuns: 300 },
    );
  });

  it("shows a time on the day its author wrote, in its own zone, not the build's or the reader's", () => {
    expect(formatDate('2023-04-06T23:30:00.000-05:00', 'en-GB')).toBe('6 April 2023');
    expect(formatDate('2023-04-07T00:30:00.000+14:00', 'en-GB')).toBe('7 April 2023');
    expect(formatDate('2025-01-01T00:00:00.000Z', 'en-GB')).toBe('1 January 2025');
  });

  it('gives back text that is no date as it is, and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom('', '2025-13-45', 'not a date', '2025-02-30T99:00', '\u0000')),
        fc.constantFrom(undefined, 'en-GB', 'de-DE', 'ja-JP'),
        (text, locale) => {
          const shown = formatDate(text, locale);
          expect(typeof shown).toBe('string');
          if (Number.isNaN(new Date(text).getTime())) expect(shown).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the date island in the browser (local-date.client.ts)', () => {
  /** The least of an island element the function touches: its <time>. */
  function islandElement(text: string) {
    const time = { textContent: text };
    return {
      element: { querySelector: (selector: string) => (selector === 'time' ? time : null) } as unknown as HTMLElement,
      time,
    };
  }

  it("rewrites the prerendered text in the reader's format, and leaves it alone for props that carry no date", () => {
    fc.assert(
      fc.property(calendarDay, (day) => {
        const { element, time } = islandElement('prerendered');
        showLocalDate(element, { date: day });
        expect(time.textContent).toBe(formatDate(day));
      }),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant({}),
          fc.record({ date: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())) }),
        ),
        (props) => {
          const { element, time } = islandElement('prerendered');
          showLocalDate(element, props as never);
          expect(time.textContent).toBe('prerendered');
        },
      ),
      { numRuns: 100 },
    );
    // An element whose <time> a script removed: nothing to do, nothing thrown.
    expect(() =>
      showLocalDate({ querySelector: () => null } as unknown as HTMLElement, { date: '2025-01-01' }),
    ).not.toThrow();
  });
});
