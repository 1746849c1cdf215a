import { Fragment } from 'react';

// Where a long value (a URL, an e-mail or a hex address) may wrap, after the Chicago Manual of
// Style: after a colon or slashes, before a dot, hyphen and the other punctuation; and inside a
// long unbroken run (a hex address), every few characters. Browsers otherwise break such values
// anywhere once they overflow, mid-word.
const BREAK_AFTER = new Set([':', '/']);
const BREAK_BEFORE = new Set(['.', '-', '_', '~', '?', '#', '%', '&', '=', '@', ',']);
/** Parts longer than this (in characters) are cut into pieces of CHUNK characters. */
export const MAX_PART = 16;
const CHUNK = 8;

/** The value cut into parts that may each start a new line; joined, they are the value. */
export function softBreakParts(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!;
    const previous = value[index - 1];
    if (
      BREAK_BEFORE.has(char) &&
      current !== '' &&
      previous !== undefined &&
      !BREAK_BEFORE.has(previous) &&
      !BREAK_AFTER.has(previous)
    ) {
      parts.push(current);
      current = '';
    }
    current += char;
    const next = value[index + 1];
    if (BREAK_AFTER.has(char) && next !== undefined && !BREAK_AFTER.has(next)) {
      parts.push(current);
      current = '';
    }
  }
  if (current !== '') parts.push(current);
  return parts.flatMap(chunked);
}

/** Cuts a long part by code points, so a character outside the BMP (an emoji) is never halved. */
function chunked(part: string): string[] {
  const chars = Array.from(part);
  if (chars.length <= MAX_PART) return [part];
  const pieces: string[] = [];
  for (let start = 0; start < chars.length; start += CHUNK) pieces.push(chars.slice(start, start + CHUNK).join(''));
  return pieces;
}

/** The value as text with a line-break opportunity (`<wbr>`) between its parts. */
export function SoftBreaks({ value }: { value: string }) {
  return (
    <>
      {softBreakParts(value).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
