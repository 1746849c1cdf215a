// The editor's configuration (Decap CMS's config), made from what the site already declares: the
// article collection from the front-matter table, each data file from its schema. A field the
// site adds to either appears in the editor without a second file to edit.
import path from 'node:path';
import { FRONT_MATTER_FIELDS, type FrontMatterKind } from '../content/frontmatter-schema.ts';
import type { CollectionLocales } from '../content/collections.ts';
import { catalogueError } from '../errors/errors.ts';
import type { Project } from '../project.ts';
import type { EditorBackend, EditorOptions } from '../render/site-definition.ts';
import { fieldsOf, jsonSchemaOf, labelOf, type EditorField, type JsonSchema, type Widget } from './schema-fields.ts';

export type { EditorBackend, EditorOptions };

/** Where the editor is published. */
export const EDITOR_PATH = '/admin';
/**
 * The data files' formats (editor-client.ts registers one a file): `<prefix>list-<name>` for a
 * list at the root, which Decap's own YAML format cannot edit, `<prefix>map-<name>` otherwise.
 * Both write each object's keys in the order of the schema's fields, where Decap's own keeps the
 * order only at the top and shuffles larger objects below.
 */
export const DATA_FORMAT_PREFIX = 'ssg-yaml-';
/** The articles' format, one a content collection (editor-client.ts registers them): `<prefix><name>`. */
export const ARTICLE_FORMAT_PREFIX = 'ssg-article-';

/** The key under which a list at a data file's root is edited (the format unwraps it on save). */
export const ROOT_LIST_KEY = 'items';

export type EditorConfig = Record<string, unknown>;

/** The widget of each kind of front-matter value. */
const KIND_WIDGETS: Record<FrontMatterKind, Widget> = {
  title: { widget: 'string', required: true },
  text: { widget: 'string', required: false },
  longText: { widget: 'text', required: false },
  date: {
    widget: 'datetime',
    format: 'YYYY-MM-DD',
    date_format: 'YYYY-MM-DD',
    time_format: false,
    default: '{{now}}',
    required: true,
  },
  list: { widget: 'list', field: { name: 'item', label: 'Item', widget: 'string' }, required: false },
  boolean: { widget: 'boolean', default: false, required: false },
  image: { widget: 'image', choose_url: false, required: false },
  url: { widget: 'string', pattern: ['^https?://\\S+$', 'Must start with https://'], required: false },
};

/** The article collection's fields: every front-matter key the generator reads, then the body. */
export function articleFields({ i18n = false } = {}): EditorField[] {
  // The translation key means something only to a site in several languages.
  const read = Object.entries(FRONT_MATTER_FIELDS).filter(([name]) => i18n || name !== 'translationKey');
  const fields = read.map(([name, { kind, label, hint, hidden }]) => ({
    name,
    label,
    ...(hidden ? { widget: 'hidden', required: false } : KIND_WIDGETS[kind]),
    // `updated` is a date an author adds later: not asked for on a new article.
    ...(kind === 'date' && name !== 'date' ? { required: false, default: undefined } : {}),
    ...(hint ? { hint } : {}),
  }));
  return [...fields, { name: 'body', label: 'Body', widget: 'markdown', required: true }];
}

const toPosix = (file: string) => file.split(path.sep).join('/');

/** The fields of a content collection's schema beyond those every article has, shown before the body. */
function ownFields(collection: ArticleFolder, warn: (message: string) => void): EditorField[] {
  const schema: JsonSchema | undefined = collection.schema ? jsonSchemaOf(collection.schema) : undefined;
  if (!schema || schema.type !== 'object') return [];
  const known = new Set(articleFields().map((field) => field.name));
  return fieldsOf(schema, '', (at, why) =>
    warn(
      `${collection.name} → ${at}: the editor at ${EDITOR_PATH} leaves this field out, as ${why}; its value is kept.`,
    ),
  ).filter((field) => !known.has(field.name));
}

/** A content collection as a folder collection of page bundles: `<slug>/index.md`, images beside it. */
function articleCollection(
  project: Project,
  collection: ArticleFolder,
  label: string,
  fields: EditorField[],
): EditorConfig {
  return {
    name: collection.name,
    label,
    folder: toPosix(path.relative(project.root, collection.dir)),
    create: true,
    extension: 'md',
    // Ours (editor-client.ts): a field cleared in the form is left out, not written as "".
    format: `${ARTICLE_FORMAT_PREFIX}${collection.name}`,
    // The slug is the folder's name: lowercase, digits and hyphens, as the build requires.
    slug: '{{slug}}',
    path: '{{slug}}/index',
    media_folder: '',
    public_folder: '',
    identifier_field: 'title',
    summary: '{{title}} ({{date}})',
    sortable_fields: ['date', 'title'],
    fields,
  };
}

/**
 * A content collection's `.mdx` articles, listed apart (`news-mdx`): Decap reads one extension a
 * folder collection. Their front matter is edited as a Markdown article's. Their body is code
 * (docs/mdx.md) that Decap's Markdown editor would rewrite on save (an MDX comment becomes text
 * readers see), so it is a hidden field, written back as it was read; an MDX article is neither
 * created nor deleted here.
 */
function mdxCollection(
  project: Project,
  collection: ArticleFolder,
  label: string,
  fields: EditorField[],
): EditorConfig {
  const name = `${collection.name}-mdx`;
  return {
    ...articleCollection(project, collection, `${label} (MDX)`, [
      ...fields.filter((field) => field.name !== 'body'),
      { name: 'body', label: 'Body', widget: 'hidden', required: false },
    ]),
    name,
    label_singular: 'MDX article',
    description: `Articles written in MDX, which can run code: their title, date, tags and other fields are changed here, their text only in the code, by a developer. New articles are written in ${label}.`,
    create: false,
    delete: false,
    extension: 'mdx',
    format: `${ARTICLE_FORMAT_PREFIX}${name}`,
    editor: { preview: false },
  };
}

/** The collections of one content collection: its Markdown articles, then its MDX ones if it has any. */
function articleCollections(
  project: Project,
  collection: ArticleFolder,
  label: string,
  warn: (message: string) => void,
): EditorConfig[] {
  const common = articleFields({ i18n: collection.i18n !== undefined });
  const fields = [...common.slice(0, -1), ...ownFields(collection, warn), ...common.slice(-1)];
  return localeFolders(collection, label).flatMap(({ folder, label: shown }) => {
    const markdown = articleCollection(project, folder, shown, fields);
    return folder.mdx ? [markdown, mdxCollection(project, folder, shown, fields)] : [markdown];
  });
}

/**
 * With `i18n`, a collection's articles in each locale, each edited as a collection of its own: the
 * default locale's in its folder (`news`, "News (English)"), another's in the folder of the same
 * name inside it (`news-de` in content/news/de, "News (Deutsch)"), each language named in itself.
 */
function localeFolders(collection: ArticleFolder, label: string): { folder: ArticleFolder; label: string }[] {
  if (!collection.i18n) return [{ folder: collection, label }];
  const { locales, defaultLocale } = collection.i18n;
  const named = (locale: string) => new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return [defaultLocale, ...locales.filter((locale) => locale !== defaultLocale)].map((locale) => ({
    folder:
      locale === defaultLocale
        ? collection
        : {
            ...collection,
            name: `${collection.name}-${locale}`,
            dir: path.join(collection.dir, locale),
            ...(collection.mdxIn ? { mdx: collection.mdxIn(locale) } : {}),
          },
    label: `${label} (${named(locale)})`,
  }));
}

/** A content collection as the editor lists it. */
export interface ArticleFolder {
  name: string;
  dir: string;
  schema?: unknown;
  /** Whether it holds `.mdx` articles: they are listed in a collection of their own. */
  mdx?: boolean;
  /** With `i18n`: the site's locales, each but the default in a folder of its own inside this one. */
  i18n?: CollectionLocales;
  /** With `i18n`: whether a locale's folder holds `.mdx` articles. */
  mdxIn?: (locale: string) => boolean;
}

/** One data file as a collection of one file, its fields from its schema (a root list under ROOT_LIST_KEY). */
function dataCollection(
  file: { name: string; file: string; schema: unknown; label?: string },
  warn: (message: string) => void,
): EditorConfig | undefined {
  const shown = toPosix(file.file);
  const schema = jsonSchemaOf(file.schema);
  if (!schema) {
    warn(`${shown}: its schema gives no JSON Schema, so the editor at ${EDITOR_PATH} leaves the file out.`);
    return undefined;
  }
  const fieldWarn = (at: string, why: string) =>
    warn(`${shown} → ${at}: the editor at ${EDITOR_PATH} leaves this field out, as ${why}; its value is kept.`);
  const label = file.label ?? labelOf(file.name);
  const fields =
    schema.type === 'array'
      ? fieldsOf(
          { type: 'object', properties: { [ROOT_LIST_KEY]: { ...schema, title: label } }, required: [ROOT_LIST_KEY] },
          '',
          (at, why) => fieldWarn(at.replace(new RegExp(`^${ROOT_LIST_KEY}\\[\\]\\.?`), 'each entry → '), why),
        )
      : fieldsOf(schema, '', fieldWarn);
  return {
    name: `data-${file.name}`,
    label,
    format: `${DATA_FORMAT_PREFIX}${schema.type === 'array' ? 'list' : 'map'}-${file.name}`,
    editor: { preview: false },
    files: [{ name: file.name, label, file: shown, fields }],
  };
}

/** The backend block: GitHub through the site's OAuth proxy. */
function backendConfig(backend: EditorBackend): EditorConfig {
  return {
    name: 'github',
    repo: backend.repo,
    branch: backend.branch ?? 'main',
    ...(backend.oauthProxy ? { base_url: backend.oauthProxy } : {}),
    ...(backend.authEndpoint ? { auth_endpoint: backend.authEndpoint } : {}),
  };
}

/**
 * The whole configuration, for `CMS.init({ config })`. `dataFiles` are the site's YAML files with
 * their schemas; a file or field the editor cannot show is named through `warn`.
 */
export function editorConfig(
  project: Project,
  options: EditorOptions,
  dataFiles: ReadonlyArray<{ name: string; file: string; schema: unknown }>,
  site: { baseUrl: string; warn: (message: string) => void; collections: readonly ArticleFolder[] },
): EditorConfig {
  const excluded = new Set(options.exclude ?? []);
  const data = dataFiles
    .filter((file) => !excluded.has(file.name))
    .flatMap((file) => dataCollection({ ...file, label: options.labels?.data?.[file.name] }, site.warn) ?? []);
  const publicDir = toPosix(path.relative(project.root, project.publicDir));
  return {
    load_config_file: false,
    backend: backendConfig(options.backend),
    publish_mode: options.publishMode ?? 'simple',
    site_url: site.baseUrl,
    display_url: site.baseUrl,
    // Uploads outside an article (none of the collections asks for one) go to the public folder.
    media_folder: `${publicDir}/media`,
    public_folder: '/media',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: uniquelyNamed([
      ...site.collections.flatMap((collection, index) =>
        articleCollections(
          project,
          collection,
          options.labels?.collections?.[collection.name] ??
            (index === 0 ? options.labels?.articles : undefined) ??
            labelOf(collection.name),
          site.warn,
        ),
      ),
      ...data,
    ]),
  };
}

/** The editor's collections, refused when two have one name (a locale's `news-de` and the site's own `news-de`). */
function uniquelyNamed<T>(collections: T[]): T[] {
  const names = collections.map((collection) => String((collection as EditorConfig).name));
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw catalogueError('CollectionInvalid', ['editorName', twice]);
  return collections;
}
