// Characters that change how text is shown rather than being shown: C0 and C1 controls, DEL (a
// terminal runs escape sequences from them), bidirectional overrides and isolates (they reorder what
// follows), and Unicode line and paragraph separators (they start a new line where none was typed).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const CONTROL_TEST = new RegExp(CONTROL.source, 'u');
// The same, but for line feeds and tabs, which a message body may contain.
const CONTROL_BUT_LINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const visible = (character: string) => `\\u${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_TEST.test(text);
}

/** `text` with every control character written out as `\uXXXX`: safe on one terminal line. */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Like `escapeControlCharacters`, keeping line feeds and tabs; CR LF and lone CR become LF. */
export function escapeControlCharactersKeepingLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_LINES, visible);
}
