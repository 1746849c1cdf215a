import { useEffect, useState } from 'react';
import { island } from 'ssg';

interface LocalDateProps {
  date: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The date in a given locale. A plain `2025-01-01` is a calendar day, not an instant: it is
 * formatted in UTC so that readers west of Greenwich do not see the day before.
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

/** Prerendered in a neutral format, then shown in the reader's own locale once hydrated. */
function LocalDate({ date }: LocalDateProps) {
  const [text, setText] = useState(() => formatDate(date, 'en-GB'));
  useEffect(() => setText(formatDate(date)), [date]);
  return <time dateTime={date}>{text}</time>;
}

export default island('local-date', LocalDate, { hydrate: 'visible' });
