// A site's collections: folders below content/ of articles (Markdown and MDX, each a page) or of
// data files (YAML or JSON, each an entry), each with its schema. Without any declared, a site
// has one: its articles in content/news.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError, SsgError, SsgErrorList } from '../errors.ts';
import type { Article } from './article.ts';
import { parseDataFile, type DataSchema } from './data.ts';

/** A collection as `defineCollection` declares it (Astro's shape: a type, a folder, a schema). */
export interface CollectionDefinition<Fields = unknown> {
  /** `content`: articles (`.md`, `.mdx`), each a page; `data`: YAML or JSON files, each an entry. */
  type?: 'content' | 'data';
  /** Its folder below `content/`; the collection's name when not given. */
  folder?: string;
  /**
   * A zod schema: of an article's own front-matter fields beyond the ones ssg knows (title,
   * date, tags…), handed to pages as `article.data`; of a data file's whole contents.
   */
  schema?: DataSchema<Fields>;
}

/** One file of a data collection: its name without extension (`id`) and its contents as the schema made them. */
export interface DataEntry<T = unknown> {
  readonly id: string;
  readonly collection: string;
  /** The file, relative to the project root. */
  readonly file: string;
  readonly data: T;
}

/** The entries pages receive of each collection: `Article`s of a content collection, `DataEntry`s of a data one. */
export type CollectionsOf<Definitions> = {
  readonly [Name in keyof Definitions]: Definitions[Name] extends { type: 'data' }
    ? readonly DataEntry<SchemaOutput<Definitions[Name]>>[]
    : readonly Article<FieldsOf<Definitions[Name]>>[];
};

type SchemaOutput<Definition> = Definition extends { schema?: DataSchema<infer T> } ? T : unknown;
type FieldsOf<Definition> = SchemaOutput<Definition> extends infer T extends object ? (unknown extends T ? {} : T) : {};

/** What a site's pages receive when it declares no collections of its own. */
export type DefaultCollections = Readonly<Record<string, readonly (Article | DataEntry)[]>>;

/**
 * A collection for `defineSite`'s `collections`: `defineCollection({ schema: z.object({ role:
 * z.string() }) })` for articles with a field of their own, `defineCollection({ type: 'data',
 * schema })` for a folder of YAML or JSON files. The literal type is kept so pages are typed.
 */
export function defineCollection<const Definition extends CollectionDefinition<any>>(
  definition: Definition,
): Definition {
  return definition;
}

/** A collection as the build reads it: its name, kind, folder (absolute) and schema. */
export interface ResolvedCollection {
  name: string;
  type: 'content' | 'data';
  dir: string;
  schema?: DataSchema;
}

/** The collections a site's definition declares, or content/news alone when it declares none. */
export const DEFAULT_COLLECTIONS: Readonly<Record<string, CollectionDefinition>> = { news: {} };

const NAME = /^[a-z][a-z0-9_-]*$/i;

/**
 * The collections of a site, their folders resolved below `contentDir`. A name that is no
 * identifier, a folder outside content/ or one folder inside another's stops the build.
 */
export function resolveCollections(
  contentDir: string,
  declared: Readonly<Record<string, CollectionDefinition>> | undefined,
  siteFile: string,
): ResolvedCollection[] {
  const definitions = declared && Object.keys(declared).length > 0 ? declared : DEFAULT_COLLECTIONS;
  const resolved = Object.entries(definitions).map(([name, definition]) => {
    const fail = (why: 'name' | 'notObject' | 'type' | 'folder') =>
      catalogueError('CollectionInvalid', [why, name], { file: siteFile });
    if (!NAME.test(name)) throw fail('name');
    if (!definition || typeof definition !== 'object') throw fail('notObject');
    const type = definition.type ?? 'content';
    if (type !== 'content' && type !== 'data') throw fail('type');
    const folder = definition.folder ?? name;
    const dir = path.resolve(contentDir, folder);
    if (typeof folder !== 'string' || !dir.startsWith(contentDir + path.sep)) throw fail('folder');
    return { name, type, dir, ...(definition.schema ? { schema: definition.schema as DataSchema } : {}) };
  });
  for (const a of resolved) {
    const other = resolved.find((b) => b !== a && (a.dir === b.dir || a.dir.startsWith(b.dir + path.sep)));
    if (other) throw catalogueError('CollectionInvalid', ['overlaps', a.name, other.name], { file: siteFile });
  }
  return resolved;
}

/** The collection a file below content/ belongs to, by its folder. */
export function collectionOf(
  collections: readonly ResolvedCollection[],
  absolute: string,
): ResolvedCollection | undefined {
  return collections.find((collection) => absolute.startsWith(collection.dir + path.sep));
}

/** Whether a path below a data collection's folder (relative to it) is an entry: YAML or JSON, nothing hidden. */
export function isDataEntryName(relative: string): boolean {
  return /\.(?:ya?ml|json)$/i.test(relative) && !relative.split(/[\\/]/).some((part) => part.startsWith('.'));
}

/**
 * The entries of each data collection, by its name: one per file below its folder, by its path
 * without extension (`alice`, `2025/launch`), checked by the collection's schema. Every bad file
 * is reported at once.
 */
export async function readDataCollections(
  root: string,
  collections: readonly ResolvedCollection[],
): Promise<Record<string, readonly DataEntry[]>> {
  const found: Record<string, readonly DataEntry[]> = {};
  const errors: SsgError[] = [];
  for (const collection of collections.filter((one) => one.type === 'data')) {
    const names = (await readdir(collection.dir, { recursive: true }).catch(missingAsNone)).filter(isDataEntryName);
    const entries: DataEntry[] = [];
    for (const name of names.sort()) {
      const absolute = path.join(collection.dir, name);
      const file = path.relative(root, absolute).split(path.sep).join('/');
      try {
        const text = await readFile(absolute, 'utf8');
        const data = parseDataFile({ name, file, text }, collection.schema);
        const id = name
          .split(path.sep)
          .join('/')
          .replace(/\.(?:ya?ml|json)$/i, '');
        entries.push(Object.freeze({ id, collection: collection.name, file, data }));
      } catch (error) {
        if (error instanceof SsgErrorList) errors.push(...error.errors);
        else if (error instanceof SsgError) errors.push(error);
        else if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
      }
    }
    found[collection.name] = Object.freeze(entries);
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return found;
}

function missingAsNone(error: NodeJS.ErrnoException): string[] {
  if (error.code === 'ENOENT') return [];
  throw error;
}
