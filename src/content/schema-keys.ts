// What keys a site's schema takes, read from the schema itself (zod 4's and zod 3's definitions),
// and the known key a mistyped one was meant to be. A schema that is not zod, or a part of one
// that is not an object, declares none: callers then say less, never more.

/** A schema's definition, as zod 4 (`_zod.def`) or zod 3 (`_def`) keeps it. */
type Definition = Record<string, any>;

const definitionOf = (schema: unknown): Definition | undefined => {
  const node = schema as { _zod?: { def?: Definition }; _def?: Definition } | undefined;
  return node?._zod?.def ?? node?._def;
};

/** The schema inside wrappers that keep the shape (optional, default, a pipe's or transform's input…). */
function unwrapped(schema: unknown): unknown {
  let node = schema;
  for (let depth = 0; depth < 16; depth++) {
    const def = definitionOf(node);
    const inner =
      def?.innerType ?? def?.in ?? def?.schema ?? (typeof def?.getter === 'function' ? def.getter() : undefined);
    if (!def || inner === undefined || def.shape !== undefined) return node;
    node = inner;
  }
  return node;
}

/** The object shape of a schema (of a union, its first form that is an object), or undefined when it has none. */
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  const node = unwrapped(schema) as { shape?: unknown } | undefined;
  const options: unknown = definitionOf(node)?.options;
  if (Array.isArray(options)) return options.map(shapeOf).find(Boolean);
  const shape = node?.shape ?? definitionOf(node)?.shape;
  const value = typeof shape === 'function' ? shape() : shape;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/** The part of a schema that checks the value at `path` (keys and array indexes), if it can be followed. */
function schemaAt(schema: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node: unknown = schema;
  for (const segment of path) {
    if (typeof segment === 'number') {
      const def = definitionOf(unwrapped(node));
      node = def?.element ?? def?.type;
    } else {
      const shape = shapeOf(node);
      node = shape ? shape[String(segment)] : definitionOf(unwrapped(node))?.valueType;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

/** The keys the object at `path` of a schema declares (none when it cannot be read). */
export function keysAt(schema: unknown, path: ReadonlyArray<PropertyKey> = []): string[] {
  return Object.keys(shapeOf(schemaAt(schema, path)) ?? {});
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

/**
 * One complaint per mistake: each unknown key with the nearest key the schema knows there, and
 * that key's own complaint (of being missing) left out, since renaming the first mends both.
 * `has` tells whether the checked value has a key at a path.
 */
export function explainIssues(
  schema: unknown,
  issues: readonly SchemaIssue[],
  has: (path: readonly PropertyKey[]) => boolean,
): ExplainedIssues {
  const explained = new Set<string>();
  const unknownKeys: ExplainedIssues['unknownKeys'] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys' || !Array.isArray(issue.keys)) continue;
    const known = keysAt(schema, issue.path);
    const absent = known.filter((key) => !has([...issue.path, key]));
    for (const key of issue.keys.map(String)) {
      const meant = nearestKey(key, absent) ?? nearestKey(key, known);
      if (meant && absent.includes(meant)) explained.add(JSON.stringify([...issue.path, meant]));
      unknownKeys.push({ path: [...issue.path], key, known, ...(meant ? { meant } : {}) });
    }
  }
  const others = issues.filter(
    (issue) =>
      !(issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) && !explained.has(JSON.stringify(issue.path)),
  );
  return { unknownKeys, others };
}
