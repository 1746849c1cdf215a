// What one article may cost the build. Articles come from pull requests, CMS accounts and pasted
// files: these limits stop one made to hurt (or a log pasted whole) before the expensive work, each
// with its own error naming the file. Real articles stay far below them (docs/reference/limits.md).
import { catalogueError } from '../errors/errors.ts';

export interface ArticleLimits {
  /** The largest article file, in bytes. */
  maxBytes: number;
  /** The deepest nesting of block quotes and lists. */
  maxDepth: number;
  /** The longest the conversion of one article may take, in milliseconds. */
  timeoutMs: number;
  /** The heap a Markdown helper process may use, in megabytes. */
  helperMemoryMb: number;
}

/** Each far above what real articles need and far below what exhausts the build (see docs/reference/limits.md). */
export const DEFAULT_LIMITS: ArticleLimits = {
  maxBytes: 1024 * 1024,
  maxDepth: 100,
  timeoutMs: 20_000,
  helperMemoryMb: 1024,
};

/** An article's size, checked before anything else is done with it. */
export function checkArticleSize(
  file: string,
  bytes: number,
  limits: Pick<ArticleLimits, 'maxBytes'> = DEFAULT_LIMITS,
): void {
  if (bytes > limits.maxBytes) throw catalogueError('ArticleTooLarge', [bytes, limits.maxBytes], { file });
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;

/**
 * How deep a Markdown body nests block quotes and lists, and the first line (of the body, from 1)
 * that nests deepest, read from each line's start as CommonMark reads containers: every `>` and
 * list marker (`-`, `+`, `*`, `1.`, `1)`) opens one level, and so do two columns of indentation (a
 * nested item sits under its parent's text). Fenced code is skipped (its indentation is code) only
 * where CommonMark sees a fence: less than four columns in, no backtick after a backtick fence,
 * and ended with the quote it opened in. An estimate from above (`- - x` counts as three), so a
 * body under the limit is under it.
 */
export function nestingDepth(body: string): { depth: number; line: number } {
  let deepest = { depth: 0, line: 0 };
  let fence: { marker: string; quotes: number } | undefined;
  let line = 0;
  for (const text of body.split(/\r\n|\r|\n/)) {
    line++;
    const { depth, quotes, gap, rest } = containersOf(text);
    // A line outside the quote the fence opened in ends the quote, and the fence with it.
    if (fence && quotes < fence.quotes) fence = undefined;
    const opening = gap < 4 ? FENCE.exec(rest) : null;
    if (fence !== undefined) {
      if (
        opening &&
        opening[1]![0] === fence.marker[0] &&
        opening[1]!.length >= fence.marker.length &&
        opening[2]!.trim() === ''
      )
        fence = undefined;
      continue;
    }
    if (opening && !(opening[1]![0] === '`' && opening[2]!.includes('`'))) fence = { marker: opening[1]!, quotes };
    if (depth > deepest.depth) deepest = { depth, line };
  }
  return deepest;
}

/** A line's containers: its levels (markers, and two columns of indentation each), its `>` count, the columns after its last marker, and the rest. */
function containersOf(text: string): { depth: number; quotes: number; gap: number; rest: string } {
  let index = 0;
  let markers = 0;
  let quotes = 0;
  let columns = 0;
  let gap = 0;
  for (;;) {
    const char = text.charCodeAt(index);
    if (char === 0x20 || char === 0x09) {
      const width = char === 0x09 ? 4 : 1;
      columns += width;
      gap += width;
    } else if (char === 0x3e /* > */) {
      markers++;
      quotes++;
      gap = 0;
    } else if ((char === 0x2d || char === 0x2b || char === 0x2a) && isGap(text.charCodeAt(index + 1))) {
      markers++;
      gap = 0;
    } else {
      const ordered = /^\d{1,9}[.)](?=[ \t]|$)/.exec(text.slice(index, index + 11));
      if (!ordered) break;
      markers++;
      gap = 0;
      index += ordered[0].length - 1;
    }
    index++;
  }
  return { depth: markers + Math.floor(columns / 2), quotes, gap, rest: text.slice(index) };
}

const isGap = (char: number) => char === 0x20 || char === 0x09 || Number.isNaN(char);

/** The body's nesting, checked before it is converted; `bodyLine` is the file's line where the body starts. */
export function checkArticleDepth(
  file: string,
  body: string,
  bodyLine: number,
  limits: Pick<ArticleLimits, 'maxDepth'> = DEFAULT_LIMITS,
): void {
  const { depth, line } = nestingDepth(body);
  if (depth > limits.maxDepth)
    throw catalogueError('ArticleTooDeep', ['levels', depth, limits.maxDepth], { file, line: line + bodyLine - 1 });
}

/** Whether an error is the JavaScript stack running out (a structure nested deeper than any check above foresaw: HTML, say). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}
