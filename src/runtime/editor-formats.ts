// How the editor at /admin reads and writes content files: the data files' YAML and the articles'
// front matter. Plain functions, loaded into the browser by editor-client.ts and tested in Node.
import { parse, stringify } from 'yaml';

export interface Formatter {
  fromFile(content: string): unknown;
  toFile(data: unknown): string;
}

export interface FieldConfig {
  name: string;
  fields?: FieldConfig[];
}

/** `value` with each object's keys in the order of its fields (those the form does not know last). */
export function ordered(value: unknown, fields: readonly FieldConfig[] | undefined): unknown {
  if (!fields) return value;
  if (Array.isArray(value)) return value.map((item) => ordered(item, fields));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const known = fields.filter((field) => Object.hasOwn(record, field.name));
  const names = new Set(known.map((field) => field.name));
  return Object.fromEntries([
    ...known.map((field) => [field.name, ordered(record[field.name], field.fields)]),
    ...Object.entries(record).filter(([name]) => !names.has(name)),
  ]);
}

/** A data file's YAML: a list at its root is edited under `rootKey`, since Decap's forms need a name for it. */
export function dataFormat(rootList: boolean, fields: readonly FieldConfig[], rootKey: string): Formatter {
  const listFields = fields.find((field) => field.name === rootKey)?.fields;
  return {
    fromFile(content) {
      const value: unknown = parse(content);
      if (rootList) return { [rootKey]: Array.isArray(value) ? value : [] };
      return value ?? {};
    },
    toFile(data) {
      const value = rootList ? ((data as Record<string, unknown> | undefined)?.[rootKey] ?? []) : data;
      return stringify(ordered(value, rootList ? listFields : fields), { lineWidth: 0 });
    },
  };
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/** A field the form left empty: a cleared text, date or list is no value, not an empty one. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * An article: YAML front matter, then the body (the form's `body`). A field cleared in the form
 * is left out, as an author who deletes the line would, rather than written as `""`, which the
 * build refuses for a date or an image.
 */
export function articleFormat(fields: readonly FieldConfig[]): Formatter {
  return {
    fromFile(content) {
      const match = FRONT_MATTER.exec(content);
      if (!match) return { body: content };
      const data: unknown = parse(match[1]!);
      return { ...(data && typeof data === 'object' ? data : {}), body: match[2]! };
    },
    toFile(data) {
      const { body = '', ...rest } = (data ?? {}) as Record<string, unknown>;
      const kept = Object.fromEntries(Object.entries(rest).filter(([, value]) => !isEmpty(value)));
      const front = Object.keys(kept).length > 0 ? stringify(ordered(kept, fields), { lineWidth: 0 }) : '';
      return `---\n${front}---\n${String(body)}`;
    },
  };
}
