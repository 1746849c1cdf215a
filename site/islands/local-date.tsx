import { island } from 'ssg';
import { formatDate } from '../dates.ts';

export interface LocalDateProps {
  date: string;
  /** The page's language, where it is not English: the date is then shown in that language. */
  locale?: string;
}

/**
 * Prerendered in a neutral format (in the page's language); in the browser `local-date.client.ts`
 * rewrites the text in the reader's own locale, without React (hydrating React for a date cost a
 * quarter of a second of blocked main thread on a phone).
 */
function LocalDate({ date, locale }: LocalDateProps) {
  return <time dateTime={date}>{formatDate(date, locale ?? 'en-GB')}</time>;
}

export default island('local-date', LocalDate, { hydrate: 'visible' });
