import type { PageProps } from 'ssg';
import type { CopyWords } from '../islands/copy-button.tsx';

/** The copy buttons' words in the page's language; `{label}` and `{shortcut}` are the button's to fill in. */
export function copyWords(t: PageProps['t']): CopyWords {
  const kept = { label: '{label}', shortcut: '{shortcut}' };
  return {
    button: t('copy.button'),
    done: t('copy.done'),
    press: t('copy.press', kept),
    hidden: t('copy.hidden', kept),
    copied: t('copy.copied', kept),
    failed: t('copy.failed', kept),
  };
}
