import type { YAMLError } from 'yaml';

/** The parser's message without its own position, which we give as file:line instead. */
export function yamlMessage(error: YAMLError): string {
  return error.message
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '')
    .trim();
}

/** What an unterminated value opens with, by the closing character the parser says is missing. */
const OPENERS: Record<string, string> = { ']': '[', '}': '{', '"': '"', "'": "'" };

/**
 * Where a YAML error is, as a line and column of `text` (1-based). The parser notices a value left
 * open (`date: [x`, an unclosed quote) only where the next line begins, one line past it: such an
 * error is placed where the value opens instead.
 */
export function yamlErrorPosition(error: YAMLError, text: string): { line: number; column: number } | undefined {
  const position = error.linePos?.[0];
  if (!position) return undefined;
  const closing = /end with an? (\S)|Missing closing (\S)/.exec(error.message);
  const opener = closing ? OPENERS[closing[1] ?? closing[2]!] : undefined;
  if (!opener || (error.code !== 'BAD_INDENT' && error.code !== 'MISSING_CHAR'))
    return { line: position.line, column: position.col };
  // The opener is before the point the error names; for a quote, skip the one that closes nothing.
  const opened = text.lastIndexOf(opener, Math.max(0, error.pos[0] - 1));
  if (opened === -1) return { line: position.line, column: position.col };
  const before = text.slice(0, opened).split(/\r\n|\r|\n/);
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
