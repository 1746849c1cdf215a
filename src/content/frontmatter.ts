import { parseDocument } from 'yaml';
import { yamlMessage } from './yaml-message.ts';
import { catalogueError } from '../errors.ts';

export interface SplitFile {
  /** The parsed front matter; empty when the file has none. */
  data: Record<string, unknown>;
  /** Everything after the closing `---` line, or the whole file when there is no front matter. */
  body: string;
}

const FENCE = /^---[ \t]*$/;

/**
 * Splits a Markdown file into YAML front matter and body. Front matter is a block between a
 * leading line of three dashes and a closing line of three dashes; without the leading line the
 * whole file is the body. `file` is only used in error messages.
 */
/** The body of a file whose front matter is known to be well formed (see splitFrontMatter). */
export function bodyOf(source: string): string {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const lines = text.split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return text;
  const closing = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  return lines.slice(closing + 1).join('\n');
}

export function splitFrontMatter(source: string, file: string): SplitFile {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const lines = text.split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return { data: {}, body: text };

  const closing = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (closing === -1) {
    throw catalogueError('FrontMatterUnclosed', [], { file, line: 1 });
  }

  const yamlSource = lines.slice(1, closing).join('\n');
  const doc = parseDocument(yamlSource, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const position = first.linePos?.[0];
    // The YAML starts on the line after the opening fence.
    throw catalogueError('FrontMatterInvalidYaml', [yamlMessage(first)], { file, line: position ? position.line + 1 : undefined, column: position?.col }, { cause: first });
  }

  const data: unknown = doc.toJS() ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw catalogueError('FrontMatterNotMapping', [], { file, line: 2 });
  }

  return { data: data as Record<string, unknown>, body: lines.slice(closing + 1).join('\n') };
}

/** The line of a top-level key in a file's front matter (1-based, counting the opening ---). */
export function lineOfKey(source: string, key: string): number | undefined {
  const lines = source.replace(/^\ufeff/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return undefined;
  for (let index = 1; index < lines.length && !FENCE.test(lines[index]!); index++) {
    const match = /^(["']?)([^:"']+)\1[ \t]*:/.exec(lines[index]!);
    if (match && match[2]!.trim() === key) return index + 1;
  }
  return undefined;
}

/** The line of the file where the body (what follows the front matter) begins. */
export function bodyStartLine(source: string, body: string): number {
  const count = (text: string) => text.split(/\r?\n/).length;
  return count(source.replace(/^\ufeff/, '')) - count(body) + 1;
}

/**
 * Dates as ISO 8601: a day (`2025-01-01`), or a day and time with an optional zone
 * (`2025-01-01T09:30`, `2025-01-01 09:30:00+01:00`; no zone means UTC).
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The date normalised to ISO 8601 (a day stays a day, a time becomes UTC with milliseconds), or
 * undefined when the text is no real date (`2025-02-30` included).
 */
export function isoDate(text: string): string | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = 'Z'] = match;
  const dayPart = `${year}-${month}-${day}`;
  const calendar = new Date(`${dayPart}T00:00:00Z`);
  if (Number.isNaN(calendar.getTime()) || calendar.toISOString().slice(0, 10) !== dayPart) return undefined;
  if (hour === undefined) return dayPart;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const time = new Date(`${dayPart}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
