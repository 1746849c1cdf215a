// What one article may cost the build. An article is content a pull request, a CMS account or a
// pasted file brings: these limits stop one designed to hurt (or a mistake: a log pasted whole)
// before the expensive work, each with its own error naming the file, and leave real articles far
// below them (measured on the development machine; see "Limits" in the README).
import { catalogueError } from '../errors.ts';

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

/**
 * 1 MiB is about 150,000 words, ten times the longest blog posts; converting one takes about a
 * second and 150 MB. Real articles nest lists and quotes five or six deep; 100 levels convert in
 * well under a second, and a few thousand exhaust the parser's stack. 20 s is a hundred times what
 * the slowest real article takes. 1,536 MB is three times what a helper uses at 10,000 articles.
 */
export const DEFAULT_LIMITS: ArticleLimits = { maxBytes: 1024 * 1024, maxDepth: 100, timeoutMs: 20_000, helperMemoryMb: 1536 };

/** An article's size, checked before anything else is done with it. */
export function checkArticleSize(file: string, bytes: number, limits: Pick<ArticleLimits, 'maxBytes'> = DEFAULT_LIMITS): void {
  if (bytes > limits.maxBytes) throw catalogueError('ArticleTooLarge', [bytes, limits.maxBytes], { file });
}

const FENCE = /^(`{3,}|~{3,})/;

/**
 * How deep a Markdown body nests block quotes and lists, and the first line (of the body, from 1)
 * that nests deepest, read from each line's start as CommonMark reads containers: every `>` and
 * list marker (`-`, `+`, `*`, `1.`, `1)`) opens one level, and so do two columns of indentation (a
 * nested item sits under its parent's text). Fenced code is skipped: its indentation is code.
 * An estimate from above (`- - x` counts as three), so a body under the limit is under it.
 */
export function nestingDepth(body: string): { depth: number; line: number } {
  let deepest = { depth: 0, line: 0 };
  let fence: string | undefined;
  let line = 0;
  for (const text of body.split(/\r\n|\r|\n/)) {
    line++;
    let index = 0;
    let depth = 0;
    let columns = 0;
    for (;;) {
      const char = text.charCodeAt(index);
      if (char === 0x20) columns += 1;
      else if (char === 0x09) columns += 4;
      else if (char === 0x3e /* > */) depth++;
      else if ((char === 0x2d || char === 0x2b || char === 0x2a) && isGap(text.charCodeAt(index + 1))) depth++;
      else {
        const ordered = /^\d{1,9}[.)](?=[ \t]|$)/.exec(text.slice(index, index + 11));
        if (!ordered) break;
        depth++;
        index += ordered[0].length - 1;
      }
      index++;
    }
    const rest = text.slice(index);
    const marker = FENCE.exec(rest)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && rest.slice(marker.length).trim() === '') fence = undefined;
      continue;
    }
    if (marker) fence = marker;
    depth += Math.floor(columns / 2);
    if (depth > deepest.depth) deepest = { depth, line };
  }
  return deepest;
}

const isGap = (char: number) => char === 0x20 || char === 0x09 || Number.isNaN(char);

/** The body's nesting, checked before it is converted; `bodyLine` is the file's line where the body starts. */
export function checkArticleDepth(file: string, body: string, bodyLine: number, limits: Pick<ArticleLimits, 'maxDepth'> = DEFAULT_LIMITS): void {
  const { depth, line } = nestingDepth(body);
  if (depth > limits.maxDepth) throw catalogueError('ArticleTooDeep', ['levels', depth, limits.maxDepth], { file, line: line + bodyLine - 1 });
}

/** Whether an error is the JavaScript stack running out (a structure nested deeper than any check above foresaw: HTML, say). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}
