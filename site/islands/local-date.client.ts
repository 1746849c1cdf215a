import { formatDate } from '../dates.ts';
import type { LocalDateProps } from './local-date.tsx';

/**
 * The reader's own variant of the page's language (`de-AT` on a German page for a reader in
 * Austria), else the page's language: a German page never shows an English date.
 */
function readerLocaleIn(locale: string): string {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return languages.find((tag) => tag === locale || tag.toLowerCase().startsWith(`${locale.toLowerCase()}-`)) ?? locale;
}

/** Shows the prerendered date in the reader's locale format (in the page's language, when it has one). */
export default function showLocalDate(element: HTMLElement, { date, locale }: LocalDateProps): void {
  const time = element.querySelector('time');
  if (time && typeof date === 'string')
    time.textContent = formatDate(date, typeof locale === 'string' ? readerLocaleIn(locale) : undefined);
}
