import { useEffect, useRef, useState } from 'react';
import { island } from 'ssg';

/** How long "Copied" stays before the button reads "Copy" again. */
const CONFIRM_MS = 2000;

interface CopyButtonProps {
  value: string;
  /** What is copied, for screen readers: "Copy {label}". */
  label: string;
}

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

function CopyButton({ value, label }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = () => {
    writeClipboard(value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), CONFIRM_MS);
  };

  return (
    <button type="button" className={`copy-button${state === 'copied' ? ' is-copied' : ''}`} onClick={copy}>
      <span aria-hidden="true">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Press Ctrl+C' : 'Copy'}</span>
      <span className="visually-hidden">Copy {label}</span>
      <span className="visually-hidden" role="status">
        {state === 'copied' ? `${label} copied` : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </button>
  );
}

export default island('copy-button', CopyButton, { hydrate: 'visible' });
