import { isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { parse as parseToml, TomlDate, TomlError } from 'smol-toml';
import { yamlErrorPosition, yamlMessage } from './yaml-message.ts';
import { catalogueError } from '../errors/errors.ts';
import { isStackOverflow } from './limits.ts';

export interface SplitFile {
  /** The parsed front matter; empty when the file has none. */
  data: Record<string, unknown>;
  /** Everything after the closing line, or the whole file when there is no front matter; lines end in `\n`. */
  body: string;
}

/** How front matter is written: YAML between `---` lines (Jekyll, Astro, Eleventy), TOML between `+++` (Hugo), or a JSON object (Hugo). */
type FrontMatterFormat = 'yaml' | 'toml' | 'json';

const OPENING: Record<FrontMatterFormat, RegExp> = { yaml: /^---[ \t]*$/, toml: /^\+\+\+[ \t]*$/, json: /^\{[ \t]*$/ };
const CLOSING: Record<FrontMatterFormat, RegExp> = { yaml: /^---[ \t]*$/, toml: /^\+\+\+[ \t]*$/, json: /^\}[ \t]*$/ };
const FORMATS = Object.keys(OPENING) as FrontMatterFormat[];

/** Where a file's front matter is: its format and the indexes of its opening and closing lines (-1: never closed). */
interface Block {
  format: FrontMatterFormat;
  open: number;
  close: number;
}

/** A file's lines, whatever its line endings (LF, CRLF or a CR alone, as old Mac editors save), without a byte-order mark. */
export function linesOf(source: string): string[] {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  // Most files end their lines in LF alone: split at it, several times faster than at the pattern.
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}

/** How many lines linesOf finds in `text`, without making them. */
function lineCount(text: string): number {
  if (text.includes('\r')) return linesOf(text).length;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * The front matter block: its opening line is the file's first that is not blank, and its closing
 * line the first after it written the same way, at the start of a line. In YAML a `---` there
 * always ends a document, so a `---` inside a block scalar (indented) never ends it early.
 */
function blockOf(lines: readonly string[]): Block | undefined {
  let open = 0;
  while (open < lines.length - 1 && lines[open]!.trim() === '') open++;
  const first = lines[open] ?? '';
  const format = FORMATS.find((candidate) => OPENING[candidate].test(first));
  if (!format) return undefined;
  const closing = CLOSING[format];
  let close = -1;
  for (let index = open + 1; index < lines.length; index++) {
    if (closing.test(lines[index]!)) {
      close = index;
      break;
    }
  }
  return { format, open, close };
}

/** The body of a file whose front matter is known to be well formed (see splitFrontMatter). */
export function bodyOf(source: string): string {
  const { lines, block } = frontMatterLines(source);
  return lines.slice(block && block.close !== -1 ? block.close + 1 : 0).join('\n');
}

export interface SplitOptions {
  /**
   * Keys whose values are text, read as the author wrote them: YAML would read `title: 2024` as a
   * number and `1.10` in a list as 1.1; these keep `"2024"` and `"1.10"` (lists of them too).
   */
  textKeys?: readonly string[];
}

/**
 * Splits a Markdown file into its front matter and body. Front matter is YAML between two `---`
 * lines, TOML between two `+++` lines, or a JSON object from a `{` line to a `}` line, starting at
 * the file's first line that is not blank; without one the whole file is the body. Any line
 * ending is read. `file` is only used in error messages.
 */
export function splitFrontMatter(source: string, file: string, options: SplitOptions = {}): SplitFile {
  const { lines, block } = frontMatterLines(source);
  if (!block) return { data: {}, body: lines.join('\n') };
  if (block.close === -1)
    throw catalogueError('FrontMatterUnclosed', [block.format, block.open + 1], { file, line: block.open + 1 });
  const inner = lines.slice(block.open + 1, block.close).join('\n');
  // Before it is parsed: the YAML parser's time grows with the square of a mapping's keys.
  if (inner.length > MAX_FRONT_MATTER_LENGTH)
    throw catalogueError('FrontMatterTooLarge', [inner.length, MAX_FRONT_MATTER_LENGTH], {
      file,
      line: block.open + 1,
    });
  // Lines of the front matter's own text are counted from the line after the opening one.
  const firstLine = block.open + 2;
  const data =
    block.format === 'yaml'
      ? readYaml(inner, file, firstLine, options)
      : block.format === 'toml'
        ? readToml(inner, file, firstLine)
        : readJson(lines.slice(block.open, block.close + 1).join('\n'), file, block.open + 1);
  if (data === null || data === undefined) return { data: {}, body: lines.slice(block.close + 1).join('\n') };
  if (typeof data !== 'object' || Array.isArray(data))
    throw catalogueError('FrontMatterNotMapping', [], { file, line: firstLine });
  if (depthOf(data) > MAX_FRONT_MATTER_DEPTH)
    throw catalogueError('FrontMatterTooDeep', [MAX_FRONT_MATTER_DEPTH], { file, line: block.open + 1 });
  return { data: data as Record<string, unknown>, body: lines.slice(block.close + 1).join('\n') };
}

/** The longest front matter read, in characters: real front matter is a few hundred; a title, an excerpt and a dozen fields fit many times over. */
export const MAX_FRONT_MATTER_LENGTH = 32 * 1024;

/** How deep front matter's lists and maps may nest: real front matter nests two or three deep; what is kept of it is written as JSON, which cannot follow thousands. */
const MAX_FRONT_MATTER_DEPTH = 100;

/** How deep a parsed value nests, walked without recursion (a value nested 20,000 deep overflows the stack of any recursive walk). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_FRONT_MATTER_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** How many aliases front matter may expand: far more than anyone writes by hand, far fewer than a "billion laughs". */
const MAX_YAML_ALIASES = 100;

function readYaml(text: string, file: string, firstLine: number, options: SplitOptions): unknown {
  // Merge keys (`<<: *defaults`), as Ruby's and Go's YAML readers (Jekyll's, Hugo's) apply them.
  const doc = parseDocument(text, { prettyErrors: true, merge: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    // The parser's stack ran out: nesting past what any front matter needs, said as such.
    if (/call stack/i.test(first.message))
      throw catalogueError(
        'FrontMatterTooDeep',
        [MAX_FRONT_MATTER_DEPTH],
        { file, line: firstLine - 1 },
        { cause: first },
      );
    const position = yamlErrorPosition(first, text);
    throw catalogueError(
      'FrontMatterInvalidYaml',
      [yamlMessage(first)],
      { file, line: position ? position.line + firstLine - 1 : undefined, column: position?.column },
      { cause: first },
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // The yaml package stops an alias bomb ("Excessive alias count indicates a resource exhaustion attack").
    if (error instanceof ReferenceError && /alias/i.test(error.message))
      throw catalogueError(
        'FrontMatterAliasesExcessive',
        [MAX_YAML_ALIASES],
        { file, line: firstLine - 1 },
        { cause: error },
      );
    // What else it refuses as it builds the values ("Merge sources must be maps or map aliases").
    if (error instanceof Error)
      throw catalogueError('FrontMatterInvalidYaml', [error.message], { file, line: firstLine - 1 }, { cause: error });
    throw error;
  }
  if (data && typeof data === 'object' && !Array.isArray(data) && options.textKeys) {
    return { ...data, ...textAsWritten(doc, data as Record<string, unknown>, options.textKeys) };
  }
  return data;
}

/** The text keys' values as the author wrote them: a number or true/false as its own text, in a list too. */
function textAsWritten(doc: Document, data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const asWritten = (node: unknown, value: unknown) =>
    isScalar(node) &&
    (typeof node.value === 'number' || typeof node.value === 'boolean') &&
    typeof node.source === 'string'
      ? node.source
      : value;
  const found: Record<string, unknown> = {};
  for (const key of keys) {
    if (!Object.hasOwn(data, key)) continue;
    const node = doc.get(key, true);
    const value = data[key];
    if (isSeq(node) && Array.isArray(value))
      found[key] = value.map((item, index) => asWritten(node.items[index], item));
    else found[key] = asWritten(node, value);
  }
  return found;
}

function readToml(text: string, file: string, firstLine: number): unknown {
  try {
    return plainToml(parseToml(text));
  } catch (error) {
    if (isStackOverflow(error))
      throw catalogueError(
        'FrontMatterTooDeep',
        [MAX_FRONT_MATTER_DEPTH],
        { file, line: firstLine - 1 },
        { cause: error },
      );
    if (!(error instanceof TomlError)) throw error;
    const message = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw catalogueError(
      'FrontMatterInvalidToml',
      [message],
      { file, line: error.line + firstLine - 1, column: error.column },
      { cause: error },
    );
  }
}

/** TOML's values as YAML's would be: plain objects, and dates as the text they were written as (`2023-04-05`, `2023-04-05T10:00:00+02:00`). */
function plainToml(value: unknown): unknown {
  if (value instanceof TomlDate) return value.toISOString();
  if (Array.isArray(value)) return value.map(plainToml);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainToml(item)]));
  return value;
}

function readJson(text: string, file: string, openLine: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const position = /position (\d+)/.exec(error.message);
    const line = position ? openLine + (text.slice(0, Number(position[1])).match(/\n/g)?.length ?? 0) : openLine;
    throw catalogueError(
      'FrontMatterInvalidJson',
      [error.message.replace(/\s*\(line \d+ column \d+\)$/, '')],
      { file, line },
      { cause: error },
    );
  }
}

/**
 * The lines and front matter block of the last file asked about: a file is split, its body taken,
 * its body's first line and its keys' lines found one after another, and a file is up to 1 MiB.
 * Read only: every caller slices.
 */
let lastLines: { source: string; lines: readonly string[]; block: Block | undefined } | undefined;
function frontMatterLines(source: string) {
  if (lastLines?.source !== source) {
    const lines = linesOf(source);
    lastLines = { source, lines, block: blockOf(lines) };
  }
  return lastLines;
}

/** Keys written at the top of each format: `key:` (YAML), `key =` (TOML), `"key":` (JSON). */
const KEY_LINE: Record<FrontMatterFormat, RegExp> = {
  yaml: /^(["']?)([^:"']+)\1[ \t]*:/,
  toml: /^(["']?)([^="']+)\1[ \t]*=/,
  json: /^[ \t]*(")([^"]+)"[ \t]*:/,
};

/** The line of a top-level key in a file's front matter (1-based, counting from the file's first line). */
export function lineOfKey(source: string, key: string): number | undefined {
  const { lines, block } = frontMatterLines(source);
  if (!block) return undefined;
  const end = block.close === -1 ? lines.length : block.close;
  for (let index = block.open + 1; index < end; index++) {
    // TOML's tables ([params]) hold keys of their own, not the top level's.
    if (block.format === 'toml' && /^\s*\[/.test(lines[index]!)) break;
    const match = KEY_LINE[block.format].exec(lines[index]!);
    if (match && match[2]!.trim() === key) return index + 1;
  }
  return undefined;
}

/** Where a front-matter key is, for errors: the file, and the key's line when it has one. */
export function keyLocation(file: string, text: string, key: string): { file: string; line?: number } {
  const line = lineOfKey(text, key);
  return line ? { file, line } : { file };
}

/** Where a front-matter key is, for warnings: `content/news/a.md:4`, or the file alone. */
export function keyAt(file: string, text: string, key: string): string {
  const { line } = keyLocation(file, text, key);
  return line ? `${file}:${line}` : file;
}

/** The line of the file where the body (what follows the front matter) begins. */
export function bodyStartLine(source: string, body: string): number {
  return frontMatterLines(source).lines.length - lineCount(body) + 1;
}

/**
 * Dates as ISO 8601 and RFC 3339, and as Jekyll and Hugo write them: a day (`2025-01-01`), or a
 * day and time with an optional zone (`2025-01-01T09:30`, `2025-01-01 09:30:00+01:00`,
 * `2023-04-05 10:00:00 +0200`, `2023-04-05t10:00:00z`; no zone means UTC).
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)? ?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * The date normalised to ISO 8601, or undefined when the text is no real date (`2025-02-30`
 * included). A day stays a day; a time keeps the author's own clock and zone, with seconds and
 * milliseconds (`2023-04-05 10:00 +0200` → `2023-04-05T10:00:00.000+02:00`; no zone: `Z`), so
 * that the day shown is the day the author wrote, whatever the zone of the build or the reader.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Why text written in the shape of a date is no date (`2025-04-31`: "April has 30 days"), or
 * undefined when it is one or is not in a date's shape at all.
 */
export function dateShapeProblem(text: string): string | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  if (month! < 1 || month! > 12) return `there is no month ${match[2]}`;
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year!, month!, 0);
  const days = lastDay.getUTCDate();
  if (day! < 1) return `there is no day ${match[3]}`;
  if (day! > days) return `${MONTHS[month! - 1]}${month === 2 ? ` ${match[1]}` : ''} has ${days} days`;
  if (match[4] !== undefined && (hour! > 23 || minute! > 59 || (match[6] !== undefined && second! > 59)))
    return `${match[4]}:${match[5]}${match[6] === undefined ? '' : `:${match[6]}`} is no time of day`;
  return isoDate(text) === undefined ? 'its time zone is no offset from UTC' : undefined;
}

export function isoDate(text: string): string | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = 'Z'] = match;
  const dayPart = `${year}-${month}-${day}`;
  const calendar = new Date(`${dayPart}T00:00:00Z`);
  if (Number.isNaN(calendar.getTime()) || calendar.toISOString().slice(0, 10) !== dayPart) return undefined;
  if (hour === undefined) return dayPart;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = /^z$/i.test(zone)
    ? 'Z'
    : zone.replace(/^([+-]\d{2}):?(\d{2})?$/, (_, hours: string, minutes = '00') => `${hours}:${minutes}`);
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4, 6)) > 59)) return undefined;
  const milliseconds = `${fraction}000`.slice(1, 4).padEnd(3, '0');
  const written = `${dayPart}T${hour}:${minute}:${second}.${milliseconds}${offset}`;
  return Number.isNaN(Date.parse(written)) ? undefined : written;
}
