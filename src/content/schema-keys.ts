// What keys a site's schema takes, read from the schema itself (zod 4's and zod 3's definitions),
// and the known key a mistyped one was meant to be. A schema that is not zod, or a part of one
// that is not an object, declares none: callers then say less, never more.

/** A schema's definition, as zod 4 (`_zod.def`) or zod 3 (`_def`) keeps it. */
type Definition = Record<string, any>;

const definitionOf = (schema: unknown): Definition | undefined => {
  const node = schema as { _zod?: { def?: Definition }; _def?: Definition } | undefined;
  return node?._zod?.def ?? node?._def;
};

/** The schema inside wrappers that keep the shape (optional, default, lazy, brand, a pipe's input…). */
function unwrapped(schema: unknown): unknown {
  let node = schema;
  for (let depth = 0; depth < 16; depth++) {
    const def = definitionOf(node);
    if (!def || def.shape !== undefined || Array.isArray(def.options) || def.left !== undefined) return node;
    // A pipe whose input is a function (zod 4's preprocess) checks its output's shape.
    const input = def.in !== undefined && definitionOf(def.in)?.type === 'transform' ? def.out : def.in;
    const inner =
      def.innerType ??
      input ??
      def.schema ??
      (typeof def.getter === 'function' ? def.getter() : undefined) ??
      (def.typeName === 'ZodBranded' ? def.type : undefined);
    if (inner === undefined) return node;
    node = inner;
  }
  return node;
}

/** The forms a value may take: a union's options, an intersection's two sides, or the schema itself. */
function formsOf(schema: unknown): unknown[] {
  const node = unwrapped(schema);
  const def = definitionOf(node);
  if (Array.isArray(def?.options)) return def.options.flatMap(formsOf);
  if (def?.left !== undefined && def.right !== undefined) return [...formsOf(def.left), ...formsOf(def.right)];
  return [node];
}

/** The object shape of one form, or undefined when it is no object. */
function shapeOf(form: unknown): Record<string, unknown> | undefined {
  const shape = (form as { shape?: unknown } | undefined)?.shape ?? definitionOf(form)?.shape;
  const value = typeof shape === 'function' ? shape() : shape;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/** Whether a form takes any key (a record's): none of its keys is then unknown. */
const takesAnyKey = (form: unknown) => {
  const def = definitionOf(form);
  return def?.type === 'record' || def?.typeName === 'ZodRecord';
};

/** The part of a schema that checks the value at `path` (keys and array indexes), each form that can. */
function schemasAt(schema: unknown, path: ReadonlyArray<PropertyKey>): unknown[] {
  let nodes: unknown[] = [schema];
  for (const segment of path) {
    nodes = nodes.flatMap(formsOf).flatMap((form) => {
      const def = definitionOf(form);
      if (typeof segment === 'number')
        return def?.element ?? (def?.typeName === 'ZodArray' ? def.type : undefined) ?? [];
      const shape = shapeOf(form);
      return (shape ? shape[String(segment)] : takesAnyKey(form) ? def?.valueType : undefined) ?? [];
    });
  }
  return nodes;
}

/** The keys an object at `path` of a schema declares, in any of its forms (none when they cannot be read). */
export function keysAt(schema: unknown, path: ReadonlyArray<PropertyKey> = []): string[] {
  const forms = schemasAt(schema, path).flatMap(formsOf);
  return [...new Set(forms.flatMap((form) => Object.keys(shapeOf(form) ?? {})))];
}

/** Whether the object at `path` of a schema takes keys of any name (a record, in any of its forms). */
export function takesAnyKeyAt(schema: unknown, path: ReadonlyArray<PropertyKey> = []): boolean {
  return schemasAt(schema, path).flatMap(formsOf).some(takesAnyKey);
}

/** Edits (insert, delete, replace, swap two letters) between two short words, or more than `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known key within a slip of the keyboard of `key` (`darft`, `tgas`, `Title`, `emial`), the
 * nearest: up to two edits for keys of six letters or more, one for shorter ones, ignoring case.
 */
export function nearestKey(key: string, known: Iterable<string>): string | undefined {
  if (key.length > 40) return undefined;
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const limit = candidate.length >= 6 ? 2 : 1;
    const distance = editDistance(lower, candidate.toLowerCase(), limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** A schema's complaint, as zod words one (an unknown key's lists them in `keys`). */
export interface SchemaIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: unknown;
  keys?: unknown;
}

/** What a schema's complaints come to: each unknown key with the key it was meant as, and the rest. */
export interface ExplainedIssues {
  unknownKeys: { path: PropertyKey[]; key: string; meant?: string; known: string[] }[];
  others: SchemaIssue[];
}

/** The value at `path`, or undefined. */
function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let at = value;
  for (const key of path) at = at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as any)[key] : undefined;
  return at;
}

/** The keys of the object at `path` of a value (none when it is no object). */
const keysOfValueAt = (value: unknown, path: ReadonlyArray<PropertyKey>): string[] => {
  const at = valueAt(value, path);
  return at && typeof at === 'object' && !Array.isArray(at) ? Object.keys(at) : [];
};

/**
 * One complaint per mistake: each unknown key with the nearest key the schema knows there, and
 * that key's own complaint (of being missing) left out, since renaming the first mends both. A
 * schema that lets unknown keys pass (z.object) says only that a key is missing: a key written
 * beside it one slip away (`rloe` for a missing `role`) is then named as the one meant.
 */
export function explainIssues(schema: unknown, issues: readonly SchemaIssue[], value: unknown): ExplainedIssues {
  const explained = new Set<string>();
  const unknownKeys: ExplainedIssues['unknownKeys'] = [];
  const named = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys' || !Array.isArray(issue.keys)) continue;
    const known = keysAt(schema, issue.path);
    const present = keysOfValueAt(value, issue.path);
    const absent = known.filter((key) => !present.includes(key));
    for (const key of issue.keys.map(String)) {
      const meant = nearestKey(key, absent) ?? nearestKey(key, known);
      if (meant && absent.includes(meant)) explained.add(JSON.stringify([...issue.path, meant]));
      named.add(JSON.stringify([...issue.path, key]));
      unknownKeys.push({ path: [...issue.path], key, known, ...(meant ? { meant } : {}) });
    }
  }
  for (const issue of issues) {
    const missing = issue.path[issue.path.length - 1];
    const parent = issue.path.slice(0, -1);
    if (typeof missing !== 'string' || explained.has(JSON.stringify(issue.path))) continue;
    if (!keysOfValueAt(value, parent).length || keysOfValueAt(value, parent).includes(missing)) continue;
    const known = keysAt(schema, parent);
    const slip = keysOfValueAt(value, parent).find(
      (key) => !known.includes(key) && !named.has(JSON.stringify([...parent, key])) && nearestKey(key, [missing]),
    );
    if (!slip) continue;
    explained.add(JSON.stringify(issue.path));
    named.add(JSON.stringify([...parent, slip]));
    unknownKeys.push({ path: parent, key: slip, known, meant: missing });
  }
  const others = issues.filter(
    (issue) =>
      !(issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) && !explained.has(JSON.stringify(issue.path)),
  );
  return { unknownKeys, others };
}
