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

export default function enhanceCopyCode(element: HTMLElement): void {
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
      button.textContent = 'Copy';
      if (status) status.textContent = '';
    }, CONFIRM_MS);
  };
  button.addEventListener('click', () => {
    const text = code.textContent ?? '';
    const copying = navigator.clipboard?.writeText
      ? navigator.clipboard.writeText(text)
      : Promise.reject(new Error('no clipboard'));
    copying.then(
      () => say('Copied', 'Code copied'),
      () => {
        selectCode(code);
        say(`Press ${shortcut()}`, `Copy failed: the code is selected, press ${shortcut()}`);
      },
    );
  });
}
