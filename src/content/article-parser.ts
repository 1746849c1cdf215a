import type { ArticleImageRecord } from '../images/article-images.ts';
import type { RemovedHtml } from './markdown-html.ts';
import { catalogueError, SsgError, SsgErrorList } from '../errors/errors.ts';
import {
  frozenWithHtml,
  convertedFields,
  sortNewestFirst,
  type Article,
  type ArticleHeading,
  type ConvertedBody,
} from './article.ts';
import type { ArticleSource } from './article-file.ts';
import { articleExcerpt } from './excerpt.ts';
import type { DataSchema } from './data.ts';
import { bodyOf, bodyStartLine, isoDate, keyAt, keyLocation, splitFrontMatter } from './frontmatter.ts';
import {
  checkFrontMatter,
  checkPublishingKeys,
  checkSlugField,
  READ_KEYS,
  TEXT_KEYS,
  textFields,
} from './frontmatter-schema.ts';
import { checkArticleDepth, checkArticleSize, DEFAULT_LIMITS, type ArticleLimits } from './limits.ts';
import { checkLookalikeKeys } from './lookalike-keys.ts';
import { keysAt, takesAnyKeyAt } from './schema-keys.ts';
import { shareImageOf, type ShareImageFolders } from './share-image.ts';
import { checkSlug, slugOf } from './slug.ts';

export interface ParseOptions {
  /** The build time: the date of an article whose front matter gives none. */
  now: Date;
  warn: (message: string) => void;
  /** Where an article's `image` may be (see ShareImageFolders). */
  files?: ShareImageFolders;
  /** What one article may cost (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
  /** The collection a file (relative to the root) is in, and its schema: `news` without one when not given. */
  /** The collection a file is in, and with `i18n` the locale its folder gives it. */
  collection?: (file: string) => { name: string; schema?: DataSchema; locale?: string } | undefined;
}

/** The front matter as written, of each article whose collection's schema made its `data`: what the cache keeps. */
const writtenData = new WeakMap<Article, Record<string, unknown>>();

/** An article's front matter as its file has it (before its collection's schema), for the Markdown cache. */
export const frontMatterOf = (article: Article): Readonly<Record<string, unknown>> =>
  writtenData.get(article) ?? article.data;

/** The front-matter keys ssg reads itself, which a collection's schema is handed with the rest. */
const SSG_KEYS = new Set([...READ_KEYS, 'slug']);

/**
 * The front matter through the collection's schema: its output merged over what was written (the
 * fields ssg knows stay as they are). Every mismatch is reported at once, each at its key's line.
 */
function checkedBySchema(
  file: string,
  text: string,
  data: Record<string, unknown>,
  collection: { name: string; schema?: DataSchema },
): Record<string, unknown> {
  if (!collection.schema) return data;
  const result = collection.schema.safeParse(data);
  if (result.success) {
    const output = result.data;
    return output && typeof output === 'object' ? { ...data, ...(output as Record<string, unknown>) } : data;
  }
  const errors = result.error.issues.map((issue) => {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the front matter)';
    // A strict schema refuses the fields ssg reads, which it is handed too: say which are ssg's.
    const { code, keys } = issue as { code?: unknown; keys?: unknown };
    const own =
      code === 'unrecognized_keys' && Array.isArray(keys)
        ? keys.filter((name: unknown) => SSG_KEYS.has(String(name)))
        : [];
    const top = issue.path[0] ?? own[0];
    // A required field not written at all is named at the front matter's first line.
    const missing = typeof top === 'string' && issue.path.length === 1 && !Object.hasOwn(data, top);
    const message =
      own.length > 0
        ? `${issue.message}; ${own.join(', ')} ${own.length === 1 ? 'is a field' : 'are fields'} ssg reads itself, which the schema is handed too: let it pass them (z.object, not z.strictObject or .strict())`
        : missing
          ? `missing from the front matter, which the schema requires (${issue.message})`
          : issue.message;
    return catalogueError(
      'ArticleSchemaMismatch',
      [key, message, collection.name],
      missing ? { file, line: 1 } : typeof top === 'string' ? keyLocation(file, text, top) : { file },
    );
  });
  throw errors.length === 1 ? errors[0]! : new SsgErrorList(errors);
}

/** One article from one file, with every default of the spec applied; html is left empty. */
export function parseArticle(source: ArticleSource, options: ParseOptions): Article {
  checkSlug(source.file);
  const limits = options.limits ?? DEFAULT_LIMITS;
  // Characters: at least a quarter of the bytes (the bytes were checked as the file was read).
  checkArticleSize(source.file, source.text.length, { maxBytes: limits.maxBytes });
  const { data, body } = splitFrontMatter(source.text, source.file, { textKeys: TEXT_KEYS });
  // Only a body about to be converted: one from the cache was converted already.
  checkArticleDepth(source.file, body, bodyStartLine(source.text, body), limits);
  return articleFromParts(source.file, data, body, options, source.text);
}

/** What a parsed file is remembered as between builds: its front matter and converted body. */
export interface ParsedParts {
  data: Record<string, unknown>;
  html: string;
  /** What the sanitiser removed from the body, with its line in the body. */
  removedHtml?: RemovedHtml[];
  /** What its images were made from, when it shows any. */
  images?: ArticleImageRecord;
  /** Its headings and its length in words (see ConvertedBody). */
  headings?: ArticleHeading[];
  words?: number;
}

/**
 * An article from front matter already parsed and its body: the spec's defaults applied.
 * `text` is the whole file, for line numbers (the body alone when the file is not at hand).
 */
function articleFromParts(
  file: string,
  written: Record<string, unknown>,
  body: string,
  options: ParseOptions,
  text = body,
  converted: ConvertedBody = { html: '' },
): Article {
  const slug = slugOf(file);
  const collection = options.collection?.(file) ?? { name: 'news' };
  const data = textFields(file, written, text, options.warn);
  const fields = checkFrontMatter(file, data, text);
  checkSlugField(file, slug, data, text);
  checkPublishingKeys(file, data, text);
  if (!takesAnyKeyAt(collection.schema))
    checkLookalikeKeys(file, data, text, options.warn, new Set(keysAt(collection.schema)));
  const at = (key: string) => keyAt(file, text, key);

  let date: string;
  if (typeof fields.date === 'string') {
    date = isoDate(fields.date)!;
  } else {
    date = options.now.toISOString();
    options.warn(
      `${file}: no date in front matter${fields.date === undefined ? '' : ' (it is not a string)'}; using the build time ${date}.`,
    );
  }
  const updated = typeof fields.updated === 'string' ? isoDate(fields.updated)! : undefined;
  if (updated !== undefined && Date.parse(updated) < Date.parse(date)) {
    options.warn(
      `${at('updated')}: updated (${fields.updated}) is before the date (${date}); check which of them is right.`,
    );
  }
  if (
    updated !== undefined &&
    Date.parse(updated) > options.now.getTime() &&
    Date.parse(date) <= options.now.getTime()
  ) {
    options.warn(
      `${at('updated')}: updated (${fields.updated}) is in the future; give the day the article was last changed.`,
    );
  }
  const title = titleOf(fields.title, slug, at, options.warn);
  const bodyLine = bodyStartLine(text, body);
  const excerpt = articleExcerpt({ file, text, body, bodyLine }, data, options.warn);
  const checked = checkedBySchema(file, text, data, collection);

  const article = frozenWithHtml(
    {
      collection: collection.name,
      slug,
      title,
      date,
      excerpt: excerpt.text,
      excerptHtml: excerpt.html,
      markdown: body,
      data: checked,
      draft: fields.draft === true,
      file,
      bodyLine,
      ...convertedFields(converted),
      ...tagsOf(fields.tags, at, options.warn),
      ...(updated !== undefined ? { updated } : {}),
      ...authorsOf(fields.author),
      ...(fields.canonical !== undefined ? { canonical: new URL(fields.canonical.trim()).href } : {}),
      ...movedFromOf(fields.aliases, fields.redirect_from),
      ...shareImageOf(file, fields, title, text, { folders: options.files, warn: options.warn }),
      ...(collection.locale === undefined
        ? {}
        : { locale: collection.locale, translationKey: fields.translationKey?.trim() ?? slug }),
    },
    converted,
  );
  if (checked !== data) writtenData.set(article, data);
  return article;
}

/** The earlier addresses `aliases` and `redirect_from` name, trimmed, each once. */
function movedFromOf(...lists: (string | string[] | undefined)[]): { movedFrom?: readonly string[] } {
  const paths = [
    ...new Set(
      lists
        .flat()
        .filter((path): path is string => path !== undefined)
        .map((path) => path.trim()),
    ),
  ];
  return paths.length > 0 ? { movedFrom: Object.freeze(paths) } : {};
}

/** The title: the front matter's text, or the slug (with a warning when a title was given but is no text, as `title: [a, b]`). */
function titleOf(title: unknown, slug: string, at: (key: string) => string, warn: (message: string) => void): string {
  if (typeof title === 'string' && title.trim() !== '') return title;
  if (title !== undefined && title !== null) {
    warn(
      `${at('title')}: title ${JSON.stringify(title)} is ${typeof title === 'string' ? 'empty' : 'not text'}; the slug "${slug}" is shown instead. Write the title as text: title: "…"`,
    );
  }
  return slug;
}

/**
 * Tags, kept only when they are a list (the spec's rule). Text where a list belongs (`tags:
 * release`, Jekyll's `tags: a b`) is not read, with a warning giving the list to write; an item
 * that is no text (a list, a map) is left out with a warning.
 */
function tagsOf(tags: unknown, at: (key: string) => string, warn: (message: string) => void): Pick<Article, 'tags'> {
  if (tags === undefined || tags === null) return {};
  if (!Array.isArray(tags)) {
    // A map has no text to split, and String() of one with a key `toString` throws.
    const text = typeof tags === 'object' ? '' : String(tags).trim();
    const items = text.includes(',') ? text.split(',') : text.split(/\s+/);
    const list = items.map((item) => item.trim()).filter(Boolean);
    warn(
      `${at('tags')}: tags is ${JSON.stringify(tags)}, not a list, so the article gets no tags; write it as a list: tags: [${list.length > 0 ? list.join(', ') : 'release, guide'}]`,
    );
    return {};
  }
  const kept: string[] = [];
  const left: unknown[] = [];
  for (const tag of tags) {
    if (typeof tag === 'string' || typeof tag === 'number' || typeof tag === 'boolean') {
      if (String(tag).trim() !== '') kept.push(String(tag));
    } else if (tag !== null) {
      left.push(tag);
    }
  }
  // One warning for all of them: a list of thousands says so once.
  if (left.length > 0)
    warn(
      `${at('tags')}: ${left.length === 1 ? `the tag ${JSON.stringify(left[0])} is` : `${left.length} tags (${JSON.stringify(left[0])}, …) are`} not text and left out; write each tag as text: tags: [release, guide]`,
    );
  return { tags: Object.freeze(kept) };
}

/** `author` as one name or a list: the names, and the byline that joins them. */
function authorsOf(author: string | string[] | undefined): Pick<Article, 'author' | 'authors'> {
  if (author === undefined) return {};
  const names = (Array.isArray(author) ? author : [author]).map((name) => name.replace(/\s+/g, ' ').trim());
  const byline = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return { author: byline, authors: Object.freeze(names) };
}

/** What was said of each line, each thing once, lines in order. */
function byLine(items: readonly RemovedHtml[]): Array<[number, string[]]> {
  const lines = new Map<number, string[]>();
  for (const { line, what } of items) {
    const said = lines.get(line) ?? [];
    if (!said.includes(what)) lines.set(line, [...said, what]);
  }
  return [...lines].sort((a, b) => a[0] - b[0]);
}

/**
 * Says what the sanitiser removed or wrote as text in an article's body, a warning a line (lines of the body,
 * counted from 1, made lines of the file): `<script>`, `the onclick attribute of <a>`.
 */
export function reportRemovedHtml(
  article: Article,
  removed: readonly RemovedHtml[],
  warn: (message: string) => void,
): void {
  const at = (line: number) => `${article.file}:${line + (article.bodyLine ?? 1) - 1}`;
  for (const [line, tags] of byLine(removed.filter((item) => item.escaped))) {
    const [starts, ends] = [tags.filter((tag) => !tag.startsWith('</')), tags.filter((tag) => tag.startsWith('</'))];
    const said = [
      ...(starts.length
        ? [
            `${starts.join(', ')} ${starts.length > 1 ? 'are' : 'is'} never closed, so shown as text instead of hiding the rest of the article; close ${starts.length > 1 ? 'each' : 'it'} (${starts.map((tag) => tag.replace('<', '</')).join(', ')}) or remove ${starts.length > 1 ? 'them' : 'it'}`,
          ]
        : []),
      ...(ends.length
        ? [
            `${ends.join(', ')} without its ">" is shown as text instead of swallowing what follows; write ${ends.map((tag) => `${tag}>`).join(', ')}`,
          ]
        : []),
    ];
    warn(`${at(line)}: ${said.join('; ')} (see "HTML in articles" in docs/write-an-article.md).`);
  }
  for (const [line, items] of byLine(removed.filter((item) => !item.escaped))) {
    warn(
      `${at(line)}: ${items.join(', ')} removed: articles may not carry scripts, styles, frames or event handlers (see "HTML in articles" in docs/write-an-article.md).`,
    );
  }
}

/** Two files with one slug: the error names the later file and the one it collides with. */
export function duplicateSlug(existing: Article, article: Article): SsgError {
  return catalogueError('ArticleSlugDuplicate', [article.slug, existing.file], { file: article.file });
}

/**
 * Parses every source, reporting all bad files at once, and rejects two files with one slug.
 * `remembered` may give a file's front matter and HTML from an earlier build, skipping the YAML.
 */
export function parseArticles(
  sources: readonly ArticleSource[],
  options: ParseOptions,
  remembered?: (source: ArticleSource) => ParsedParts | undefined,
): Article[] {
  const errors: SsgError[] = [];
  const bySlug = new Map<string, Article>();
  for (const source of sources) {
    if (source.problem) {
      errors.push(source.problem);
      continue;
    }
    try {
      const parts = remembered?.(source);
      let article: Article;
      if (parts) {
        checkSlug(source.file);
        article = articleFromParts(source.file, parts.data, bodyOf(source.text), options, source.text, parts);
        reportRemovedHtml(article, parts.removedHtml ?? [], options.warn);
      } else {
        article = parseArticle(source, options);
      }
      const key = `${article.collection}/${article.locale ?? ''}/${article.slug}`;
      const existing = bySlug.get(key);
      if (existing) {
        errors.push(duplicateSlug(existing, article));
        continue;
      }
      bySlug.set(key, article);
    } catch (error) {
      if (error instanceof SsgError) errors.push(error);
      else if (error instanceof SsgErrorList) errors.push(...error.errors);
      else throw error;
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return sortNewestFirst([...bySlug.values()]);
}
