import { formatDate } from '../dates.ts';
import type { LocalDateProps } from './local-date.tsx';

/** Shows the prerendered date in the reader's locale format. */
export default function showLocalDate(element: HTMLElement, { date }: LocalDateProps): void {
  const time = element.querySelector('time');
  if (time && typeof date === 'string') time.textContent = formatDate(date);
}
