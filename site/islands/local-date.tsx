import { island } from 'ssg';
import { formatDate } from '../dates.ts';

export interface LocalDateProps {
  date: string;
}

/**
 * Prerendered in a neutral format; in the browser `local-date.client.ts` rewrites the text in the
 * reader's own locale, without React (hydrating React for a date cost a quarter of a second of
 * blocked main thread on a phone).
 */
function LocalDate({ date }: LocalDateProps) {
  return <time dateTime={date}>{formatDate(date, 'en-GB')}</time>;
}

export default island('local-date', LocalDate, { hydrate: 'visible' });
