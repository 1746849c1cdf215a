const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A time as the generator gives it: the author's own clock, and its zone (`2023-04-05T10:00:00.000+02:00`). */
const WRITTEN_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The calendar day the author wrote: `2025-01-01`, or the day of a time in its own zone
 * (`2023-04-06T23:30:00.000-05:00` is 6 April, though it is the 7th in UTC). Other text as it is.
 */
export function dayOf(date: string): string {
  return WRITTEN_TIME.exec(date)?.[1] ?? date;
}

/**
 * The date in a given locale (the reader's when none is given): the day the author wrote, as
 * `dayOf` gives it. A calendar day is not an instant: it is formatted in UTC so that readers west
 * of Greenwich do not see the day before. Text that is no date comes back as it is.
 */
export function formatDate(date: string, locale?: string): string {
  if (Number.isNaN(new Date(date).getTime())) return date;
  const day = dayOf(date);
  const time = new Date(day);
  if (Number.isNaN(time.getTime())) return date;
  return formatter(locale, DATE_ONLY.test(day)).format(time);
}

// Building a formatter is the slow part of formatting a date; a page or a build formats many.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string | undefined, utc: boolean): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${utc}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, { dateStyle: 'long', ...(utc ? { timeZone: 'UTC' } : {}) });
    formatters.set(key, cached);
  }
  return cached;
}
