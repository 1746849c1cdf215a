import { parseDocument } from 'yaml';
import { yamlMessage } from './yaml-message.ts';
import { SsgError } from './errors.ts';

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
    throw new SsgError('FrontMatterUnclosed', 'The front matter block opened on line 1 is never closed.', {
      file,
      line: 1,
    });
  }

  const yamlSource = lines.slice(1, closing).join('\n');
  const doc = parseDocument(yamlSource, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const position = first.linePos?.[0];
    // The YAML starts on the line after the opening fence.
    throw new SsgError(
      'FrontMatterInvalidYaml',
      `Invalid YAML in front matter: ${yamlMessage(first)}`,
      { file, line: position ? position.line + 1 : undefined, column: position?.col },
      { cause: first },
    );
  }

  const data: unknown = doc.toJS() ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new SsgError('FrontMatterNotMapping', 'The front matter is not a list of key: value pairs.', {
      file,
      line: 2,
    });
  }

  return { data: data as Record<string, unknown>, body: lines.slice(closing + 1).join('\n') };
}
