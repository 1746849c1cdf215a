// A site's collections: folders below content/ of articles (Markdown and MDX, each a page) or of
// data files (YAML or JSON, each an entry), each with its schema. Without any declared, a site
// has one: its articles in content/news.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError, SsgError, SsgErrorList } from '../errors/errors.ts';
import type { Article } from './article.ts';
import { parseDataFile, type DataSchema } from './data.ts';
import { recordDeclarationSite } from './declaration-site.ts';
import { declaredLocation, type DeclarationSites } from './declared-location.ts';

/** A collection as `defineCollection` declares it (Astro's shape: a type, a folder, a schema). */
export interface CollectionDefinition<Fields = unknown> {
  /** `content`: articles (`.md`, `.mdx`), each a page; `data`: YAML or JSON files, each an entry. */
  type?: 'content' | 'data';
  /** Its folder, one name directly below `content/`; the collection's name when not given. */
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
  // Errors about the collection then name the file and line that declare it.
  if (definition && typeof definition === 'object') recordDeclarationSite(definition, defineCollection);
  return definition;
}

/** A collection as the build reads it: its name, kind, folder (absolute) and schema. */
export interface ResolvedCollection {
  name: string;
  type: 'content' | 'data';
  dir: string;
  schema?: DataSchema;
  /** Where it is declared: the file that called defineCollection and its line, or the site's entry. */
  where: { file: string; line?: number };
  /** With `i18n`: the site's locales, each but the default in a folder of its own inside this one. */
  i18n?: CollectionLocales;
  /** Made by the generator, not declared (`strings`, with `i18n`): never told of as missing. */
  implicit?: true;
}

/** The site's locales as a collection sorts its files by them. */
export interface CollectionLocales {
  readonly locales: readonly string[];
  readonly defaultLocale: string;
}

/** With `i18n`, the site's strings per locale: `content/strings/de.yaml`, unless the site declares `strings`. */
export const STRINGS_COLLECTION = 'strings';

/**
 * The locale of a file of a collection: that of the folder it is in directly below the
 * collection's (`news/de/x.md`, `news/de/x/index.md`), else the default locale.
 */
export function localeOfFile(collection: ResolvedCollection, absolute: string): string | undefined {
  if (!collection.i18n) return undefined;
  const [first, ...rest] = path.relative(collection.dir, absolute).split(path.sep);
  return rest.length > 0 && collection.i18n.locales.includes(first!) ? first : collection.i18n.defaultLocale;
}

/** The collection `articles` lists and a feed carries unless it names another: the first content collection. */
export const firstContentCollection = (collections: readonly ResolvedCollection[]) =>
  collections.find((collection) => collection.type === 'content');

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
  /** To name the file that called defineCollection (the site's entry otherwise): the root, and the bundle's lookup. */
  declarations?: { root: string; sites: DeclarationSites },
  /** With `i18n`: each collection's files sorted by locale, and the strings a collection of their own. */
  i18n?: CollectionLocales,
): ResolvedCollection[] {
  const definitions = declared && Object.keys(declared).length > 0 ? declared : DEFAULT_COLLECTIONS;
  const implicit = i18n && !Object.hasOwn(definitions, STRINGS_COLLECTION);
  const resolved = Object.entries(definitions).map(([name, definition]): ResolvedCollection => {
    const where = (declarations && declaredLocation(declarations.sites(definition), declarations.root)) ?? {
      file: siteFile,
    };
    const fail = (why: 'name' | 'notObject' | 'type' | 'schema') =>
      catalogueError('CollectionInvalid', [why, name], where);
    if (!NAME.test(name)) throw fail('name');
    if (!definition || typeof definition !== 'object') throw fail('notObject');
    const type = definition.type ?? 'content';
    if (type !== 'content' && type !== 'data') throw fail('type');
    const folder: unknown = definition.folder ?? name;
    const dir = typeof folder === 'string' ? path.resolve(contentDir, folder) : '';
    if (!dir.startsWith(contentDir + path.sep))
      throw catalogueError('CollectionInvalid', ['folder', name, JSON.stringify(folder) ?? String(folder)], where);
    // One folder directly below content/: a link to another collection's article leads to /<folder>/<slug>.
    const below = path.relative(contentDir, dir).split(path.sep).join('/');
    if (below.includes('/')) throw catalogueError('CollectionInvalid', ['nested', name, below], where);
    const schema: unknown = definition.schema;
    if (schema !== undefined && typeof (schema as Partial<DataSchema> | null)?.safeParse !== 'function')
      throw fail('schema');
    return { name, type, dir, where, ...(schema ? { schema: schema as DataSchema } : {}), ...(i18n ? { i18n } : {}) };
  });
  if (implicit)
    resolved.push({
      name: STRINGS_COLLECTION,
      type: 'data',
      dir: path.join(contentDir, STRINGS_COLLECTION),
      where: { file: siteFile },
      i18n,
      implicit: true,
    });
  // Named at the later of the two: the one whose folder was set to the other's.
  resolved.forEach((a, index) => {
    const inside = (one: string, other: string) => one === other || one.startsWith(other + path.sep);
    const other = resolved.slice(0, index).find((b) => inside(a.dir, b.dir) || inside(b.dir, a.dir));
    if (other) throw catalogueError('CollectionInvalid', ['overlaps', a.name, other.name], a.where);
  });
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
 * without extension (`alice`, `2025/launch`), sorted by it, checked by the collection's schema.
 * Every bad file, and any id two files share (`alice.yaml`, `alice.json`), is reported at once.
 */
export async function readDataCollections(
  root: string,
  collections: readonly ResolvedCollection[],
): Promise<Record<string, readonly DataEntry[]>> {
  const found: Record<string, readonly DataEntry[]> = {};
  const errors: SsgError[] = [];
  for (const collection of collections.filter((one) => one.type === 'data')) {
    const entries: DataEntry[] = [];
    const taken = new Map<string, string>();
    for (const { name, id } of await entryNames(root, collection)) {
      const absolute = path.join(collection.dir, name);
      const file = path.relative(root, absolute).split(path.sep).join('/');
      try {
        const text = await readFile(absolute, 'utf8');
        checkJson(file, text);
        const same = taken.get(id);
        if (same) throw catalogueError('DataEntryDuplicate', [id, same], { file });
        taken.set(id, file);
        // A locale's strings are words: `1.10` stays as written, not the number 1.1.
        const words = collection.i18n !== undefined && collection.name === STRINGS_COLLECTION;
        const data = parseDataFile({ name, file, text }, collection.schema, words);
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

/** The entry files below a data collection's folder (none when it is missing), each with its id, by id. */
async function entryNames(root: string, collection: ResolvedCollection): Promise<{ name: string; id: string }[]> {
  let names: string[];
  try {
    names = await readdir(collection.dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') {
      const file = path.relative(root, collection.dir).split(path.sep).join('/');
      throw catalogueError('CollectionInvalid', ['notFolder', collection.name], { file });
    }
    throw error;
  }
  const ids = names.filter(isDataEntryName).map((name) => ({ name, id: dataEntryId(name) }));
  // By id, then by name: of two files with one id, the first is kept and the second reported.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return ids.sort((a, b) => order(a.id, b.id) || order(a.name, b.name));
}

/** A data entry's id: its path below the collection's folder, without the extension, with `/`. */
export const dataEntryId = (name: string): string =>
  name
    .split(path.sep)
    .join('/')
    .replace(/\.(?:ya?ml|json)$/i, '');

/**
 * A `.json` entry is JSON: YAML, which reads it, would take `{ "a": 1, }` and comments too, and
 * name a mistake as YAML's. The place JSON.parse names is turned into a line and column.
 */
function checkJson(file: string, text: string): void {
  if (!/\.json$/i.test(file)) return;
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = (error as Error).message;
    const at = /at position (\d+)/.exec(reason);
    const before = at ? text.replace(/^\uFEFF/, '').slice(0, Number(at[1])) : undefined;
    const where =
      before === undefined ? {} : { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
    throw catalogueError('DataInvalidJson', [reason.replace(/\s+/g, ' ')], { file, ...where }, { cause: error });
  }
}
