// The copy button of a code block (made by the Markdown stage, markdown-code.ts): fetched on the
// visitor's first interaction with it, when the click that brought it is replayed.

/** How long the button says "Copied" before it reads "Copy" again. */
const CONFIRM_MS = 2000;

const shortcut = () => (/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘C' : 'Ctrl+C');

/** Selects the code, so that the keyboard's copy works where the clipboard refused. */
function selectCode(code: Element): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(code);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** What the button says, in the article's language: the island's props (none in English). */
interface CopyWords {
  copy: string;
  copied: string;
  codeCopied: string;
  pressKey: string;
  copyFailed: string;
}

const ENGLISH: CopyWords = {
  copy: 'Copy',
  copied: 'Copied',
  codeCopied: 'Code copied',
  pressKey: 'Press {key}',
  copyFailed: 'Copy failed: the code is selected, press {key}',
};

export default function enhanceCopyCode(element: HTMLElement, props: Partial<CopyWords> = {}): void {
  const words = { ...ENGLISH, ...props };
  const withKey = (text: string) => text.replaceAll('{key}', shortcut());
  const button = element.querySelector<HTMLButtonElement>('button.code-copy');
  const status = element.querySelector<HTMLElement>('.code-copy-status');
  const code = element.closest('.code-block')?.querySelector('pre code, pre');
  if (!button || !code) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const say = (label: string, announcement: string) => {
    button.textContent = label;
    if (status) status.textContent = announcement;
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.textContent = words.copy;
      if (status) status.textContent = '';
    }, CONFIRM_MS);
  };
  button.addEventListener('click', () => {
    const text = code.textContent ?? '';
    const copying = navigator.clipboard?.writeText
      ? navigator.clipboard.writeText(text)
      : Promise.reject(new Error('no clipboard'));
    copying.then(
      () => say(words.copied, words.codeCopied),
      () => {
        selectCode(code);
        say(withKey(words.pressKey), withKey(words.copyFailed));
      },
    );
  });
}
