const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The date in a given locale (the reader's when none is given). A plain `2025-01-01` is a
 * calendar day, not an instant: it is formatted in UTC so that readers west of Greenwich do not
 * see the day before. Text that is no date comes back as it is.
 */
export function formatDate(date: string, locale?: string): string {
  const time = new Date(date);
  if (Number.isNaN(time.getTime())) return date;
  return formatter(locale, DATE_ONLY.test(date)).format(time);
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
