// The articles of a run: every file on a first run, else the changed files parsed again and the
// list published anew; their conversion starts with the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { articleText, emptyArticle, readArticleSources, type ArticleSource } from '../content/article-file.ts';
import { collectionOf, localeOfFile, resolveCollections, type ResolvedCollection } from '../content/collections.ts';
import { localesOf } from '../render/i18n.ts';
import { isPublished, type Article } from '../content/article.ts';
import { parseArticle } from '../content/article-parser.ts';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import { parseWithCache } from '../content/article-store.ts';
import type { EditConverter } from '../pool/edit-converter.ts';
import { changedFields } from '../render/dependencies.ts';
import { SsgError } from '../errors/errors.ts';
import type { Project } from '../project.ts';
import { startConversion } from './article-conversion.ts';
import { relative, statIsFile } from './changes.ts';
import type { ArticleStageSetup, ChangeKind, Inputs, RunOptions, State } from './pipeline-types.ts';
import { publishArticles } from './publish.ts';
import { articleConverter, markdownSettingsOf, siteMarkdownOf } from './site-markdown.ts';
import { siteEntryShown } from './site-settings.ts';

export type ArticleInputs = Pick<
  Inputs,
  'collections' | 'byFile' | 'articles' | 'listChanged' | 'fields' | 'conversion' | 'articleKeys' | 'markdownStamp'
>;

/**
 * The collections the site declares, resolved; those of the last run (or the default) while its
 * code does not bundle, so the articles are read as they were and the code's error reported.
 */
function collectionsOf(
  project: Project,
  bundle: ServerBundle | undefined,
  previous: State | undefined,
): readonly ResolvedCollection[] {
  if (!bundle) return previous?.collections ?? resolveCollections(project.contentDir, undefined, '');
  return resolveCollections(
    project.contentDir,
    bundle.module.site.collections,
    siteEntryShown(project),
    { root: project.root, sites: bundle.module.declarationSiteOf },
    localesOf(bundle.module.site),
  );
}

/**
 * A declared collection whose folder does not exist is empty, as a new one is until its first
 * entry (git keeps no empty folder); a mistyped folder is told of rather than silently empty.
 */
function warnOfMissingFolders(
  project: Project,
  collections: readonly ResolvedCollection[],
  warn: (message: string) => void,
) {
  for (const collection of collections) {
    if (collection.implicit || existsSync(collection.dir)) continue;
    const folder = relative(project, collection.dir);
    const { file, line } = collection.where;
    warn(
      `${line ? `${file}:${line}` : file}: the collection "${collection.name}" has no folder ${folder}, so it is empty; create the folder, or give the collection the folder it has ("folder").`,
    );
  }
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * With `i18n`, a folder inside a collection's that looks like a locale's but is none of the site's
 * (`DE`, `de-at`, or `fr` on a site in English and German): its articles are the default
 * locale's, which is rarely what was meant, so it is told of once.
 */
function warnOfStrayLocaleFolders(
  project: Project,
  collections: readonly ResolvedCollection[],
  warn: (message: string) => void,
) {
  for (const { dir, i18n, type } of collections) {
    if (!i18n || type !== 'content' || !existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = entry.name;
      if (!entry.isDirectory() || i18n.locales.includes(name)) continue;
      const meant = i18n.locales.find((locale) => locale.toLowerCase() === name.toLowerCase());
      const language = /^[a-z]{2}(-[a-z\d]{2,4})?$/i.test(name) ? languageNames.of(name) : undefined;
      if (!meant && !language) continue;
      const folder = relative(project, path.join(dir, name));
      warn(
        meant
          ? `${folder}: the locale is written ${meant} in i18n.locales, so its articles are published as ${i18n.defaultLocale}; rename the folder ${meant}.`
          : `${folder} looks like the folder of a locale (${language}), but ${name} is not in i18n.locales (${i18n.locales.join(', ')}), so its articles are published as ${i18n.defaultLocale}; add ${name} to i18n.locales, or rename the folder.`,
      );
    }
  }
}

/** Which collection a file (relative to the root) is in, for the parser: its name and schema. */
const collectionLookup = (project: Project, collections: readonly ResolvedCollection[]) => (file: string) => {
  const absolute = path.resolve(project.root, file);
  const collection = collectionOf(collections, absolute);
  const locale = collection && localeOfFile(collection, absolute);
  return collection && locale !== undefined ? { ...collection, locale } : collection;
};

/**
 * Whether the collections are as the last run read them. A schema is code (a refinement, a
 * transform) that a new bundle may have changed with nothing to compare: a content collection
 * with one is read again after any change of the site's code.
 */
const sameCollections = (a: readonly ResolvedCollection[], b: readonly ResolvedCollection[]) =>
  a.length === b.length &&
  a.every((one, index) => {
    const other = b[index]!;
    const schemaFree = one.type === 'data' || (!one.schema && !other.schema);
    const sameLocales = JSON.stringify(one.i18n) === JSON.stringify(other.i18n);
    return one.name === other.name && one.type === other.type && one.dir === other.dir && schemaFree && sameLocales;
  });

/**
 * Reads a file that just changed. An editor that truncates and then writes is seen in between as
 * an empty file: an empty read is given a moment and read again before it is believed.
 */
async function readSettled(file: string): Promise<Buffer> {
  const bytes = readFileSync(file);
  if (bytes.length > 0) return bytes;
  await new Promise((resolve) => setTimeout(resolve, 25));
  return readFileSync(file);
}

/** Parses one changed article file. A front matter error is kept to be reported with the others in file order. */
async function parseChanged(
  project: Project,
  file: string,
  collections: readonly ResolvedCollection[],
  options: RunOptions,
): Promise<Article | SsgError | undefined> {
  if (!statIsFile(file)) return undefined; // deleted, or a folder named x.md (its articles come on their own)
  try {
    const name = relative(project, file);
    const text = articleText(await readSettled(file), name, options.limits);
    if (text === undefined) {
      options.warn(emptyArticle(name));
      return undefined;
    }
    return parseArticle(
      { file: name, text },
      {
        now: options.now,
        warn: options.warn,
        limits: options.limits,
        files: { root: project.root, publicDir: project.publicDir, contentDir: project.contentDir },
        collection: collectionLookup(project, collections),
      },
    );
  } catch (error) {
    if (error instanceof SsgError) return error;
    throw error;
  }
}

/**
 * The articles of a run: all on a first run, or when the site's Markdown settings changed (every
 * article is converted again, as the cache's key says); else the changed files.
 */
export async function articleInputs(
  project: Project,
  setup: ArticleStageSetup,
  previous: State | undefined,
  changes: ReadonlyMap<ChangeKind, readonly string[]>,
  server: Promise<ServerBundle>,
  options: RunOptions,
): Promise<ArticleInputs> {
  if (!previous) return readAllArticles(project, setup, server, undefined, options);
  const bundle = changes.has('code') ? await server.catch(() => undefined) : undefined;
  // New Markdown settings or other collections: every article is read and converted again.
  if (
    bundle &&
    (markdownSettingsOf(bundle).stamp !== previous.markdownStamp ||
      !sameCollections(collectionsOf(project, bundle, previous), previous.collections))
  )
    return readAllArticles(project, setup, server, previous, options);
  if (!setup.edits) throw new Error('a run that updates articles needs the edit converter kept between runs');
  const parsed = await parseChangedFiles(project, previous, changes.get('article') ?? [], options);
  return listUpdated(
    project,
    { ...setup, edits: setup.edits },
    previous,
    parsed,
    await server.catch(() => undefined),
    options,
  );
}

/** Every article: files seen in an earlier build skip their YAML and Markdown (both cached). */
async function readAllArticles(
  project: Project,
  setup: ArticleStageSetup,
  server: Promise<ServerBundle>,
  previous: State | undefined,
  options: RunOptions,
): Promise<ArticleInputs> {
  const { now, warn } = options;
  // The folders to read, and the site's plugins (part of each article's cache key), are known
  // once its code is bundled.
  const bundle = await server.catch(() => undefined);
  const collections = collectionsOf(project, bundle, previous);
  if (bundle?.module.site.collections) warnOfMissingFolders(project, collections, warn);
  if (!previous) warnOfStrayLocaleFolders(project, collections, warn);
  const sources: ArticleSource[] = [];
  for (const collection of collections.filter((one) => one.type === 'content'))
    sources.push(...(await readArticleSources(project.root, collection.dir, warn, options.limits)));
  const markdown = siteMarkdownOf(setup.moduleCopies, bundle);
  const store = await parseWithCache(sources, {
    now,
    warn,
    limits: options.limits,
    cacheDir: project.cacheDir,
    imageDir: setup.images.cacheDir,
    root: project.root,
    publicDir: project.publicDir,
    contentDir: project.contentDir,
    siteStamp: markdown.stamp,
    lazyHtml: setup.lazyHtml,
    collection: collectionLookup(project, collections),
  });
  const byFile = new Map(store.all.map((article) => [article.file, article]));
  const publish = { drafts: options.drafts, future: options.future, now };
  const articles = publishArticles(byFile, publish);
  // Held back (drafts, future posts) are not converted, unless they may come due while this runs.
  const pending = setup.convertHeldBack
    ? store.pending
    : store.pending.filter((item) => isPublished(item.article, publish));
  const site = bundle?.module.site;
  const conversion = startConversion(
    project,
    { ...store, pending },
    articles,
    { images: setup.images, markdown, spare: setup.spare, ...(site ? { site } : {}) },
    options,
  );
  // Read again while dev runs (new collections, a schema's code): a file written meanwhile is new
  // here, not in a change of its own, and the pages must learn of it as of any other.
  return {
    collections,
    byFile: byFile as Map<string, Article>,
    articles,
    listChanged: previous !== undefined && listDiffers(previous.articles, articles),
    fields: previous ? changedFieldsOf(previous.articles, articles) : new Map(),
    conversion,
    articleKeys: store.keys,
    markdownStamp: markdown.stamp,
  };
}

/** The article files as parsed before, with the changed ones parsed again (or dropped); `edited`: those parsed well. */
async function parseChangedFiles(
  project: Project,
  previous: State,
  files: readonly string[],
  options: RunOptions,
): Promise<EditedArticles> {
  const parsed = new Map<string, Article | SsgError>(previous.byFile);
  const edited: Article[] = [];
  for (const file of files) {
    const result = await parseChanged(project, file, previous.collections, options);
    if (result) parsed.set(relative(project, file), result);
    else parsed.delete(relative(project, file));
    if (result && !(result instanceof SsgError)) edited.push(result);
  }
  return { parsed, edited };
}

interface EditedArticles {
  parsed: Map<string, Article | SsgError>;
  edited: Article[];
}

/** Whether the published list has other articles, or another order. */
const listDiffers = (before: readonly Article[], after: readonly Article[]) =>
  after.length !== before.length || after.some((article, index) => before[index]!.file !== article.file);

/** What changed in each article, as parsed, by file. */
function changedFieldsOf(previous: readonly Article[], articles: readonly Article[]): Map<string, Set<string>> {
  const before = new Map(previous.map((article) => [article.file, article]));
  const fields = new Map<string, Set<string>>();
  for (const article of articles) {
    const old = before.get(article.file);
    const changed = old && old !== article ? changedFields(old, article) : undefined;
    if (changed && changed.size > 0) fields.set(article.file, changed);
  }
  return fields;
}

/**
 * The list published again after the changed files were parsed (none: as future posts come due
 * while dev runs), and the conversion of the new ones started in the kept edit helper: it works
 * while this process makes the pages that do not show them.
 */
function listUpdated(
  project: Project,
  setup: ArticleStageSetup & { edits: EditConverter },
  previous: State,
  { parsed, edited }: EditedArticles,
  bundle: ServerBundle | undefined,
  options: RunOptions,
): ArticleInputs {
  const articles = publishArticles(parsed, { drafts: options.drafts, future: options.future, now: options.now });
  const byFile = parsed as Map<string, Article>; // publishArticles threw if any was an error
  // The changed files, and one held back until now (a future post that came due, its file as it
  // was): a held-back article's images are never made ready, and the value the last runs kept of
  // it may not be converted at all.
  const wasPublished = new Set(previous.articles);
  const converting = new Set(edited);
  const pending = [
    ...edited,
    ...articles.filter((article) => !wasPublished.has(article) && !converting.has(article)),
  ].map((article) => ({ article, key: article.file }));
  const listChanged = listDiffers(previous.articles, articles);
  // What changed in each article, as parsed: one being converted differs from its last value in
  // its HTML, headings and reading time too, which the pages that show it are made again for.
  const fields = changedFieldsOf(previous.articles, articles);
  const markdown =
    pending.length > 0
      ? siteMarkdownOf(setup.moduleCopies, bundle, { drawing: false })
      : { options: markdownSettingsOf(bundle).options };
  const converter = articleConverter(setup.images, { ...markdown, stamp: previous.markdownStamp });
  const edits = {
    convert: (
      items: Parameters<EditConverter['convertAll']>[0],
      onBatch?: Parameters<EditConverter['convertAll']>[2],
    ) => setup.edits.convertAll(items, converter, onBatch),
  };
  const conversion = startConversion(
    project,
    { pending, images: new Map() },
    articles,
    {
      images: setup.images,
      markdown: { ...markdown, stamp: previous.markdownStamp },
      edits,
      ...(bundle ? { site: bundle.module.site } : {}),
    },
    options,
  );
  return {
    collections: previous.collections,
    byFile,
    articles,
    listChanged,
    fields,
    conversion,
    markdownStamp: previous.markdownStamp,
  };
}
