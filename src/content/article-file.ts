import { readFileSync, statSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { catalogueError, SsgError } from '../errors/errors.ts';
import { checkArticleSize, DEFAULT_LIMITS, type ArticleLimits } from './limits.ts';
import { ARTICLE_EXTENSION } from './slug.ts';

/** One article file as read: its text, or why it could not be read as an article. */
export interface ArticleSource {
  /** Path relative to the project root, used in messages and as the identity of the source. */
  file: string;
  text: string;
  /** Why the file could not be read as an article (not text, say): reported with the others' problems, in file order. */
  problem?: SsgError;
}

const README = /^readme\.(?:md|markdown)$/i;

/**
 * Whether a `.md` path below the articles folder (relative to it) is an article by its name.
 * Not: files and folders whose name starts with a dot (editor locks `.#post.md`, macOS `._post.md`,
 * `.DS_Store`, hidden folders) and `README.md` files, which describe a folder.
 */
export function isArticleName(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  const name = parts[parts.length - 1]!;
  return ARTICLE_EXTENSION.test(name) && !README.test(name) && !parts.some((part) => part.startsWith('.'));
}

/**
 * Every article file below `dir` (sub-folders included), relative to `root`, in a stable order.
 * Things named like articles that are not files (a folder `x.md`, a link pointing nowhere) are
 * left out with a warning; a file that cannot be read stops the build, naming it.
 */
export async function readArticleSources(
  root: string,
  dir: string,
  warn: (message: string) => void = () => {},
  limits: ArticleLimits = DEFAULT_LIMITS,
): Promise<ArticleSource[]> {
  const absolute = path.resolve(root, dir);
  let entries: Dirent[];
  try {
    entries = await readdir(absolute, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw catalogueError(
      'ArticleUnreadable',
      ['folder', (error as Error).message],
      { file: path.relative(root, absolute) },
      { cause: error },
    );
  }
  const files = entries
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => isArticleName(path.relative(absolute, file)))
    .sort();
  // One after another, synchronously: small files read so cost far less than as many reads
  // queued on the thread pool at once.
  const sources: ArticleSource[] = [];
  for (const file of files) {
    const source = readArticleSource(root, file, warn, limits);
    if (source) sources.push(source);
  }
  return sources;
}

function readArticleSource(
  root: string,
  file: string,
  warn: (message: string) => void,
  limits: ArticleLimits,
): ArticleSource | undefined {
  const relative = path.relative(root, file);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) {
    warn(`${relative}: a link to nothing; skipped.`);
    return undefined;
  }
  if (!stat.isFile()) {
    if (!stat.isDirectory()) warn(`${relative}: not a file; skipped.`);
    return undefined; // a folder named x.md: the articles in it are read on their own
  }
  let bytes: Buffer;
  try {
    // Refused before it is read, so a huge file costs nothing.
    if (stat.size > limits.maxBytes)
      return {
        file: relative,
        text: '',
        problem: catalogueError('ArticleTooLarge', [stat.size, limits.maxBytes], { file: relative }),
      };
    bytes = readFileSync(file);
  } catch (error) {
    throw catalogueError(
      'ArticleUnreadable',
      ['article', (error as Error).message],
      { file: relative },
      { cause: error },
    );
  }
  let text: string | undefined;
  try {
    text = articleText(bytes, relative, limits);
  } catch (error) {
    if (error instanceof SsgError) return { file: relative, text: '', problem: error };
    throw error;
  }
  if (text === undefined) {
    warn(emptyArticle(relative));
    return undefined;
  }
  return { file: relative, text };
}

/** The warning for an empty article file, which is skipped. */
export const emptyArticle = (file: string) =>
  `${file}: the file is empty; skipped. Write the article in it, or delete it.`;

/** What a file that is not text starts with, and what it then is. */
const MAGIC: ReadonlyArray<[bytes: number[], what: string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (a Word or OpenDocument file is one)'],
  [[0x52, 0x49, 0x46, 0x46], 'a RIFF file (a WebP image, a WAV sound)'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/**
 * An article file's text: its bytes read as UTF-8, or undefined when it holds nothing but white
 * space (skipped with a warning: an editor's new file, or one emptied by mistake, publishes
 * nothing). A file that is not UTF-8 text (an image, a document, a file saved as Windows-1252 or
 * UTF-16) is refused naming what it looks like and, for a wrong encoding, the line of its first
 * byte that is not UTF-8: read as UTF-8 it would publish garbage or U+FFFD marks.
 */
export function articleText(
  bytes: Uint8Array,
  file: string,
  limits: Pick<ArticleLimits, 'maxBytes'> = DEFAULT_LIMITS,
): string | undefined {
  checkArticleSize(file, bytes.length, limits);
  const magic = MAGIC.find(([start]) => start.every((byte, index) => bytes[index] === byte));
  if (magic) throw catalogueError('ArticleNotText', ['binary', magic[1]], { file });
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw catalogueError('ArticleNotText', ['utf16'], { file });
  const nul = bytes.indexOf(0);
  if (nul !== -1)
    throw catalogueError('ArticleNotText', ['binary', 'binary data (it holds NUL bytes)'], {
      file,
      line: lineAt(bytes, nul),
    });
  if (!isUtf8(bytes)) {
    const bad = firstInvalidUtf8(bytes);
    throw catalogueError(
      'ArticleNotText',
      ['encoding', `0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')}`],
      { file, line: lineAt(bytes, bad) },
    );
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.replace(/^\ufeff/, '').trim() === '' ? undefined : text;
}

/** The line (from 1) of a byte offset: LF, CRLF and CR each end a line. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index++) {
    if (bytes[index] === 0x0a || (bytes[index] === 0x0d && bytes[index + 1] !== 0x0a)) line++;
  }
  return line;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (length === 0) return index;
    if (length > 1) {
      const sequence = Buffer.from(bytes.subarray(index, index + length));
      if (sequence.length < length || !isUtf8(sequence)) return index;
    }
    index += length;
  }
  return bytes.length - 1;
}
