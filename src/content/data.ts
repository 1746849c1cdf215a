import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { yamlErrorPosition, yamlMessage } from './yaml-message.ts';
import { catalogueError, SsgError, SsgErrorList } from '../errors/errors.ts';
import { explainIssues, type SchemaIssue } from './schema-keys.ts';

/** A schema check for a YAML file: anything with zod's `safeParse` contract. */
export interface DataSchema<T = unknown> {
  safeParse(
    input: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

export interface DataFile {
  name: string;
  /** Relative to the project root. */
  file: string;
  text: string;
}

export async function readDataFiles(root: string, contentDir: string): Promise<DataFile[]> {
  let entries: string[];
  try {
    entries = await readdir(contentDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = entries.filter((entry) => /\.ya?ml$/i.test(entry)).sort();
  return Promise.all(
    files.map(async (entry) => ({
      name: entry.replace(/\.ya?ml$/i, ''),
      file: path.relative(root, path.join(contentDir, entry)),
      text: await readFile(path.join(contentDir, entry), 'utf8'),
    })),
  );
}

/** `entry 2 ("Alice") → links.1.href`: the entry by its index and name, then the field. */
function describePath(doc: Document, issuePath: ReadonlyArray<PropertyKey>): string {
  if (issuePath.length === 0) return '(the whole file)';
  const [first, ...rest] = issuePath;
  let head = String(first);
  if (typeof first === 'number') {
    const entry = doc.getIn([first]);
    const name = isNode(entry) || (entry && typeof entry === 'object') ? doc.getIn([first, 'name']) : undefined;
    head = `entry ${first + 1}${typeof name === 'string' ? ` ("${name}")` : ''}`;
    return rest.length ? `${head} → ${rest.map(String).join('.')}` : head;
  }
  return issuePath.map(String).join('.');
}

/** The line of the deepest node on the path that exists in the file. */
function lineOf(doc: Document, lines: LineCounter, issuePath: ReadonlyArray<PropertyKey>): number | undefined {
  for (let length = issuePath.length; length >= 0; length--) {
    const node = doc.getIn(issuePath.slice(0, length) as unknown[], true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * Parses one YAML (or JSON) file and checks it against its schema, reporting every problem at once.
 * With `asText`, every value is read as the text it is written as (`1.10`, `yes`, `~`): a file of
 * words, such as a locale's strings.
 */
export function parseDataFile(source: DataFile, schema: DataSchema | undefined, asText = false): unknown {
  const lines = new LineCounter();
  const doc = parseDocument(source.text, {
    lineCounter: lines,
    prettyErrors: true,
    ...(asText ? { schema: 'failsafe' as const } : {}),
  });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const position = yamlErrorPosition(first, source.text);
    throw catalogueError(
      'DataInvalidYaml',
      [yamlMessage(first)],
      { file: source.file, line: position?.line, column: position?.column },
      { cause: first },
    );
  }
  const value: unknown = doc.toJS();
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SsgErrorList(schemaErrors({ file: source.file, doc, lines, value }, schema, result.error.issues));
}

/** One error per mistake, in the order of the file's lines (see explainIssues). */
function schemaErrors(
  { file, doc, lines, value }: { file: string; doc: Document; lines: LineCounter; value: unknown },
  schema: DataSchema,
  issues: ReadonlyArray<SchemaIssue>,
): SsgError[] {
  const at = (path: ReadonlyArray<PropertyKey>) => ({ file, line: lineOf(doc, lines, path) });
  const { unknownKeys, others } = explainIssues(schema, issues, value);
  return [
    ...unknownKeys.map(({ path, key, meant, known }) =>
      catalogueError('DataKeyUnknown', [describePath(doc, [...path, key]), key, meant, known], at([...path, key])),
    ),
    ...others.map((issue) =>
      catalogueError('DataSchemaMismatch', [describePath(doc, issue.path), issue.message], at(issue.path)),
    ),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

export function parseDataFiles(
  sources: readonly DataFile[],
  schemas: Record<string, DataSchema | undefined>,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const errors: SsgError[] = [];
  for (const source of sources) {
    try {
      data[source.name] = parseDataFile(source, schemas[source.name]);
    } catch (error) {
      if (error instanceof SsgErrorList) errors.push(...error.errors);
      else if (error instanceof SsgError) errors.push(error);
      else throw error;
    }
  }
  const present = new Set(sources.map((source) => source.name));
  for (const name of Object.keys(schemas)) {
    if (!present.has(name) && schemas[name]) {
      const result = schemas[name]!.safeParse(undefined);
      if (!result.success) {
        errors.push(catalogueError('DataFileMissing', [name]));
      }
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return data;
}
