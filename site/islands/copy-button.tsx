import { useEffect, useRef, useState } from 'react';
import { island } from 'ssg';

/** How long "Copied" stays before the button reads "Copy" again. */
const CONFIRM_MS = 2000;

/** What the button says, in the page's language: `{label}` is what is copied, `{shortcut}` the keys that copy. */
export interface CopyWords {
  /** "Copy", "Copied" and "Press {shortcut}", shown. */
  button: string;
  done: string;
  press: string;
  /** "Copy {label}", "{label} copied" and "Copy failed: …", for screen readers. */
  hidden: string;
  copied: string;
  failed: string;
}

interface CopyButtonProps {
  value: string;
  /** What is copied, for screen readers: "Copy {label}". */
  label: string;
  words: CopyWords;
}

const fill = (template: string, values: { label: string; shortcut: string }) =>
  template.replace(/\{(label|shortcut)\}/g, (_, name: 'label' | 'shortcut') => values[name]);

type CopyState = 'idle' | 'copied' | 'failed';

/** Writes to the clipboard; falls back to a hidden text area where the Clipboard API is missing. */
async function writeClipboard(value: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(value);
    return;
  }
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}

/** Whether this browser offers any way to copy at all. */
function canCopy(): boolean {
  return (
    Boolean(navigator.clipboard?.writeText) ||
    (typeof document.queryCommandSupported === 'function' && document.queryCommandSupported('copy'))
  );
}

/**
 * When the clipboard refuses, the value shown beside the button is selected, so that Ctrl+C or
 * ⌘C copies it as the button then says.
 */
export function selectShownValue(button: HTMLElement, value: string): boolean {
  const holder = button.closest('.copy-value') ?? button.parentElement;
  const shown = [...(holder?.querySelectorAll('code, a, span, input') ?? [])].find(
    (element) => !button.contains(element) && element.textContent?.trim() === value,
  );
  const selection = window.getSelection();
  if (!shown || !selection) return false;
  const range = document.createRange();
  range.selectNodeContents(shown);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

const shortcut = () => (/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘C' : 'Ctrl+C');

function CopyButton({ value, label, words }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>('idle');
  const [usable, setUsable] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setUsable(canCopy()), []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = () => {
    writeClipboard(value).then(
      () => setState('copied'),
      () => {
        if (button.current) selectShownValue(button.current, value);
        setState('failed');
      },
    );
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), CONFIRM_MS);
  };

  if (!usable) return null;
  return (
    <button
      ref={button}
      type="button"
      className={`copy-button${state === 'idle' ? '' : ` is-${state}`}`}
      onClick={copy}
    >
      <span aria-hidden="true">
        {state === 'copied'
          ? words.done
          : state === 'failed'
            ? fill(words.press, { label, shortcut: shortcut() })
            : words.button}
      </span>
      <span className="visually-hidden">{fill(words.hidden, { label, shortcut: '' })}</span>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? fill(words.copied, { label, shortcut: '' })
          : state === 'failed'
            ? fill(words.failed, { label, shortcut: shortcut() })
            : ''}
      </span>
    </button>
  );
}

// Nothing to fetch until someone reaches for a button; a click that comes first is replayed.
export default island('copy-button', CopyButton, { hydrate: 'interaction' });
