// How the editor at /admin reads and writes content files: the data files' YAML and the articles'
// front matter. Plain functions, loaded into the browser by editor-client.ts and tested in Node.
import { isMap, isScalar, isSeq, parse, parseDocument, stringify, type Document } from 'yaml';

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

const keyOf = (pair: { key: unknown }) => String(isScalar(pair.key) ? pair.key.value : pair.key);

/**
 * The node of `doc` that holds `value`: `node` itself where it held the same kind of thing (a
 * map's pairs, a list's items and a scalar updated in place), so the comments on what stays are
 * kept; a new node otherwise.
 */
function updated(doc: Document, node: unknown, value: unknown): unknown {
  if (isMap(node) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    node.items = node.items.filter((pair) => Object.hasOwn(record, keyOf(pair)));
    const present = new Set(node.items.map((pair) => keyOf(pair)));
    for (const pair of node.items) pair.value = updated(doc, pair.value, record[keyOf(pair)]);
    for (const [key, item] of Object.entries(record)) if (!present.has(key)) node.add(doc.createPair(key, item));
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    node.items = value.map((item, index) =>
      index < node.items.length ? updated(doc, node.items[index], item) : doc.createNode(item),
    );
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    node.value = value;
    return node;
  }
  return doc.createNode(value);
}

/**
 * A data file's YAML: a list at its root is edited under `rootKey`, since Decap's forms need a name
 * for it. Saved over the file as it was read, so its comments (what staff are told of a field) stay.
 */
export function dataFormat(rootList: boolean, fields: readonly FieldConfig[], rootKey: string): Formatter {
  const listFields = fields.find((field) => field.name === rootKey)?.fields;
  let read: string | undefined;
  return {
    fromFile(content) {
      read = content;
      const value: unknown = parse(content);
      if (rootList) return { [rootKey]: Array.isArray(value) ? value : [] };
      return value ?? {};
    },
    toFile(data) {
      const value = rootList ? ((data as Record<string, unknown> | undefined)?.[rootKey] ?? []) : data;
      const doc = read === undefined ? undefined : parseDocument(read);
      if (!doc || doc.errors.length > 0 || doc.contents === null)
        return stringify(ordered(value, rootList ? listFields : fields), { lineWidth: 0 });
      doc.contents = updated(doc, doc.contents, value) as typeof doc.contents;
      return doc.toString({ lineWidth: 0 });
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
