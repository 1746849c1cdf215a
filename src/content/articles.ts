import type { ArticleImageRecord } from '../images/article-images.ts';
import type { RemovedHtml } from './markdown-html.ts';
import { readFileSync, statSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError, SsgError, SsgErrorList } from '../errors.ts';
// zod's tree-shakable form: the same checks and messages, and 35 KB to load where the chained
// form was 755 KB (40 ms of every build's start, measured bundled).
import * as z from 'zod/mini';
import { isUtf8 } from 'node:buffer';
import { bodyOf, bodyStartLine, isoDate, lineOfKey, splitFrontMatter } from './frontmatter.ts';
import { excerptFromMarkdown, MAX_EXCERPT_LENGTH } from './excerpt.ts';
import { checkArticleDepth, checkArticleSize, DEFAULT_LIMITS, isStackOverflow, type ArticleLimits } from './limits.ts';

/**
 * A news article as the spec defines it, plus where it came from and its converted body. Never
 * changed once made: converting an article's Markdown makes a new value (`withHtml`).
 */
export interface Article {
  readonly slug: string;
  readonly title: string;
  readonly date: string;
  /** The excerpt as plain text (its Markdown's markup removed): a meta description. */
  readonly excerpt: string;
  /** The excerpt as inline HTML (emphasis, code, line breaks; links as their text): a list's or a feed's summary. */
  readonly excerptHtml: string;
  readonly tags?: readonly string[];
  readonly markdown: string;
  /** The body converted to HTML; empty while the Markdown stage has not converted it. */
  readonly html: string;
  /** The whole front matter, for fields beyond the ones above. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly draft: boolean;
  /** The source file, relative to the project root. */
  readonly file: string;
  /** The line of the file where `markdown` begins (after the front matter). */
  readonly bodyLine?: number;
  /** When it was last changed (`updated`), ISO 8601 as `date` is. */
  readonly updated?: string;
  /** Who wrote it (`author`: a name, or a list of names), as a byline says it: `A`, `A and B`, `A, B and C`. */
  readonly author?: string;
  /** The same names one by one. */
  readonly authors?: readonly string[];
  /** The absolute URL search engines should treat as the original (`canonical`), when it is published elsewhere first. */
  readonly canonical?: string;
  /** Its own share image (`image`, `imageAlt`): the file, relative to the project root, and what it shows. */
  readonly image?: { readonly file: string; readonly alt: string };
  /** Its headings in order, for a table of contents (empty until converted). */
  readonly headings: readonly ArticleHeading[];
  /** Minutes to read it, at 200 words a minute, at least 1 (0 until converted). */
  readonly readingTime: number;
}

/** A heading of an article: its level (1–6), its id on the page and its text. */
export interface ArticleHeading {
  readonly depth: number;
  readonly id: string;
  readonly text: string;
}

/** What converting an article's body gives it: its HTML, its headings and its length in words. */
export interface ConvertedBody {
  html: string;
  headings?: readonly ArticleHeading[];
  words?: number;
}

/** Words a minute a reader reads, for the reading time. */
export const WORDS_PER_MINUTE = 200;

/** The article with its body converted: a new value, the parsed one left as it was. */
/** The fields an article gets from its conversion (withHtml): a parsed article has them empty. */
export const CONVERTED_FIELDS: readonly string[] = ['html', 'headings', 'readingTime'];

export function withHtml(article: Article, body: ConvertedBody): Article {
  // A parsed article (its html an empty value, never a cache getter that spreading would call).
  return frozenWithHtml({ ...article, ...convertedFields(body) }, body);
}

function convertedFields({ headings = [], words = 0 }: ConvertedBody) {
  return { headings: Object.freeze(headings.map((heading) => Object.freeze({ ...heading }))), readingTime: words > 0 ? Math.max(1, Math.ceil(words / WORDS_PER_MINUTE)) : 0 };
}

/**
 * The article, frozen, with the body's HTML: a value, or the getter of a cache entry that reads it
 * when a page first shows it (most pages of a build come from the output folder unread).
 */
function frozenWithHtml(article: Omit<Article, 'html'>, body: ConvertedBody): Article {
  const lazy = Object.getOwnPropertyDescriptor(body, 'html')?.get;
  return Object.freeze(Object.defineProperty(article, 'html', lazy ? { get: lazy, enumerable: true } : { value: body.html, enumerable: true, writable: false }) as Article);
}

export interface ArticleSource {
  /** Path relative to the project root, used in messages and as the identity of the source. */
  file: string;
  text: string;
  /** Why the file could not be read as an article (not text, say): reported with the others' problems, in file order. */
  problem?: SsgError;
}

export interface ParseOptions {
  /** The build time: the date of an article whose front matter gives none. */
  now: Date;
  warn: (message: string) => void;
  /**
   * Where an article's `image` may be: the project root, its content folder (`content`) and its
   * public folder (`site/public`, where `/…` points); relative ones are from the root.
   */
  files?: { root: string; publicDir: string; contentDir?: string };
  /** What one article may cost (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The extensions of article files: `.md`, and `.markdown` as Jekyll writes them. */
const ARTICLE_EXTENSION = /\.(?:md|markdown)$/i;
const INDEX = /^index\.(?:md|markdown)$/i;
const README = /^readme\.(?:md|markdown)$/i;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

/**
 * `news/hello.md` → `hello`; a page bundle `news/hello/index.md` (the article with its images in
 * one folder, as Hugo has them) → `hello`, the folder's name.
 */
export function slugOf(file: string): string {
  const name = path.basename(file);
  if (INDEX.test(name)) {
    const folder = path.basename(path.dirname(file));
    if (folder !== '' && folder !== '.') return folder;
  }
  return name.replace(ARTICLE_EXTENSION, '');
}

/**
 * The slug a name would have as Hugo and Eleventy make one: letters without their accents
 * (`Über` → `uber`), lower case, every run of anything else (spaces, underscores, dots) one hyphen.
 * Empty when nothing of it is a Latin letter or a digit.
 */
export function suggestedSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[øØ]/g, 'o')
    .replace(/[đĐ]/g, 'd')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
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

/** The front-matter keys whose values are text, read as written (`title: 2024` is "2024", `tags: [1.10]` keeps "1.10"). */
const TEXT_KEYS = ['title', 'excerpt', 'description', 'tags', 'author', 'imageAlt', 'slug'];

function checkSlug(file: string): string {
  const slug = slugOf(file);
  if (!isValidSlug(slug)) {
    const suggested = suggestedSlug(slug);
    const { kind, name } = renamedFor(file, suggested);
    throw catalogueError('ArticleSlugInvalid', [slug, suggested, kind, name], { file });
  }
  return slug;
}

/**
 * What to rename for an article to have `slug`: its folder in a page bundle (`hello/index.md`),
 * else its file, keeping its extension; no name when there is no slug to give.
 */
function renamedFor(file: string, slug: string): { kind: 'file' | 'folder'; name: string } {
  const kind = INDEX.test(path.basename(file)) ? 'folder' : 'file';
  if (slug === '') return { kind, name: '' };
  return { kind, name: kind === 'folder' ? slug : `${slug}${ARTICLE_EXTENSION.exec(file)?.[0] ?? '.md'}` };
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

/** A date field: a string that is a date (YAML without quotes gives one too). */
const dateField = (key: string) =>
  z.optional(z.unknown()).check(
    z.superRefine((value, context) => {
      if (typeof value === 'string' && isoDate(value) === undefined) {
        context.addIssue({ code: 'custom', message: `${key} "${value}" is not a date; write it as "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM", UTC).` });
      }
    }),
  );

const nonEmpty = (key: string, what: string) =>
  z.string({ error: (issue) => `${key} must be ${what} (it is ${JSON.stringify(issue.input)}).` }).check(z.refine((value) => value.trim() !== '', { message: `${key} is empty; give ${what}, or remove the line.`, abort: true }));

/** Image files a share card can be: what social networks show (no SVG). */
const SHARE_IMAGE_FILE = /\.(png|jpe?g|webp|avif|gif)$/i;

/**
 * The fields of front matter the generator reads. Strict where a mistake would publish the wrong
 * thing (`draft: "true"` is a string, and would publish); lenient where the spec gives a default.
 */
const frontMatterSchema = z.looseObject({
  title: z.optional(z.unknown()),
  excerpt: z.optional(z.unknown()),
  tags: z.optional(z.unknown()),
  draft: z.optional(z.boolean({ error: (issue) => `draft must be true or false, without quotes (it is ${JSON.stringify(issue.input)}).` })),
  date: dateField('date'),
  updated: dateField('updated').check(
    z.refine((value) => value === undefined || typeof value === 'string', {
      message: 'updated must be a date, written as "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM", UTC).',
    }),
  ),
  author: z.optional(
    z.union([nonEmpty('author', 'a name'), z.array(nonEmpty('author', 'a list of names')).check(z.minLength(1, 'author is an empty list; give a name, or remove the line.'))], {
      error: (issue) => `author must be a name, or a list of names (it is ${JSON.stringify(issue.input)}).`,
    }),
  ),
  canonical: z.optional(
    nonEmpty('canonical', 'an absolute URL').check(
      z.refine(isAbsoluteHttpUrl, {
        error: (issue) => `canonical "${String(issue.input)}" is not an absolute URL; write the whole address of the original, starting with https:// (with no user name or password in it).`,
      }),
    ),
  ),
  image: z.optional(
    nonEmpty('image', 'the path of an image file').check(
      z.refine((value) => !/^[a-z][a-z0-9+.-]+:/i.test(value.trim()), {
        abort: true,
        error: (issue) => `image "${String(issue.input)}" is a URL; give a file of this site instead (a path from the article's folder, or from site/public when it starts with /).`,
      }),
      z.refine((value) => SHARE_IMAGE_FILE.test(value.trim()), {
        error: (issue) => `image "${String(issue.input)}" is not a PNG, JPEG, WebP, AVIF or GIF file; social networks show no other kind as a share image.`,
      }),
    ),
  ),
  imageAlt: z.optional(nonEmpty('imageAlt', 'a description of the image')),
});

/** Whether a URL is absolute and on the web (http or https), as a canonical URL must be. */
function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Keys people write for one the generator reads, and what it reads instead. */
const LOOKALIKE_KEYS: Record<string, string> = {
  summary: 'excerpt',
  abstract: 'excerpt',
  published: 'draft',
  publish: 'draft',
  drafts: 'draft',
  tag: 'tags',
  categories: 'tags',
  category: 'tags',
  name: 'title',
  titel: 'title',
  headline: 'title',
  dates: 'date',
  datum: 'date',
  pubdate: 'date',
  excerp: 'excerpt',
  except: 'excerpt',
  // The names other generators use (Astro, Hugo, Jekyll, Eleventy) for fields this one reads.
  lastmod: 'updated',
  modified: 'updated',
  updateddate: 'updated',
  updated_at: 'updated',
  datemodified: 'updated',
  last_modified_at: 'updated',
  update: 'updated',
  heroimage: 'image',
  cover: 'image',
  coverimage: 'image',
  cover_image: 'image',
  featuredimage: 'image',
  featured_image: 'image',
  thumbnail: 'image',
  ogimage: 'image',
  og_image: 'image',
  images: 'image',
  imagealt: 'imageAlt',
  image_alt: 'imageAlt',
  alt: 'imageAlt',
  heroimagealt: 'imageAlt',
  authors: 'author',
  by: 'author',
  writer: 'author',
  canonicalurl: 'canonical',
  canonical_url: 'canonical',
};

/** The front-matter keys the generator reads. */
const READ_KEYS = ['title', 'date', 'excerpt', 'description', 'tags', 'draft', 'updated', 'author', 'canonical', 'image', 'imageAlt'];

/** Edits (insert, delete, replace, swap two letters) between two short words, or more than `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The read key a key not read was probably meant to be: another generator's name for it, or a slip of the keyboard. */
export function meantKey(key: string): string | undefined {
  const lower = key.toLowerCase();
  if (Object.hasOwn(LOOKALIKE_KEYS, lower)) return LOOKALIKE_KEYS[lower];
  if (key.length > 40) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const read of READ_KEYS) {
    const limit = read.length >= 6 ? 2 : 1;
    const distance = editDistance(lower, read.toLowerCase(), limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { key: read, distance };
  }
  return best?.key;
}

/** Where a front-matter key is, for errors: the file, and the key's line when it has one. */
function keyLocation(file: string, text: string, key: string): { file: string; line?: number } {
  const line = lineOfKey(text, key);
  return line ? { file, line } : { file };
}

/** Where a front-matter key is, for warnings: `content/news/a.md:4`, or the file alone. */
function keyAt(file: string, text: string, key: string): string {
  const { line } = keyLocation(file, text, key);
  return line ? `${file}:${line}` : file;
}

/** A warning for each key that is not read but looks like one that is (`summary`: did you mean excerpt?). */
function warnLookalikeKeys(file: string, data: Record<string, unknown>, text: string, warn: (message: string) => void): void {
  let warned = 0;
  let more = 0;
  for (const key of Object.keys(data)) {
    if (READ_KEYS.includes(key)) continue;
    const meant = meantKey(key);
    if (!meant || Object.hasOwn(data, meant)) continue;
    // A file of thousands of such keys is told about the first ten, and how many more there are.
    if (warned === 10) {
      more++;
      continue;
    }
    warned++;
    warn(`${keyAt(file, text, key)}: "${key}" in front matter is not read; did you mean ${meant}?`);
  }
  if (more > 0) warn(`${file}: ${more} more keys in front matter are not read and look like ones that are; see the ten above.`);
}

/** The front matter checked against the schema: every bad field of the file at once, with its line. */
function checkFrontMatter(file: string, data: Record<string, unknown>, text: string) {
  const result = frontMatterSchema.safeParse(data);
  if (result.success) return result.data;
  const errors = result.error.issues.map(
    (issue) => catalogueError('FrontMatterFieldInvalid', [issue.message], { file, line: lineOfKey(text, String(issue.path[0] ?? '')) }),
  );
  throw errors.length === 1 ? errors[0]! : new SsgErrorList(errors);
}

/**
 * An article from front matter already parsed and its body: the spec's defaults applied.
 * `text` is the whole file, for line numbers (the body alone when the file is not at hand).
 */
export function articleFromParts(file: string, written: Record<string, unknown>, body: string, options: ParseOptions, text = body, converted: ConvertedBody = { html: '' }): Article {
  const slug = slugOf(file);
  const data = textFields(file, written, text, options.warn);
  const fields = checkFrontMatter(file, data, text);
  checkSlugField(file, slug, data, text);
  checkPublishingKeys(file, data, text);
  warnLookalikeKeys(file, data, text, options.warn);
  const at = (key: string) => keyAt(file, text, key);

  let date: string;
  if (typeof fields.date === 'string') {
    date = isoDate(fields.date)!;
  } else {
    date = options.now.toISOString();
    options.warn(`${file}: no date in front matter${fields.date === undefined ? '' : ' (it is not a string)'}; using the build time ${date}.`);
  }
  const updated = typeof fields.updated === 'string' ? isoDate(fields.updated)! : undefined;
  if (updated !== undefined && Date.parse(updated) < Date.parse(date)) {
    options.warn(`${at('updated')}: updated (${fields.updated}) is before the date (${date}); check which of them is right.`);
  }
  if (updated !== undefined && Date.parse(updated) > options.now.getTime() && Date.parse(date) <= options.now.getTime()) {
    options.warn(`${at('updated')}: updated (${fields.updated}) is in the future; give the day the article was last changed.`);
  }
  const title = titleOf(fields.title, slug, at, options.warn);
  const bodyLine = bodyStartLine(text, body);
  const excerpt = excerptOf({ file, text, body, bodyLine }, data, options.warn);

  return frozenWithHtml({
    slug,
    title,
    date,
    excerpt: excerpt.text,
    excerptHtml: excerpt.html,
    markdown: body,
    data,
    draft: fields.draft === true,
    file,
    bodyLine,
    ...convertedFields(converted),
    ...tagsOf(fields.tags, at, options.warn),
    ...(updated !== undefined ? { updated } : {}),
    ...authorsOf(fields.author),
    ...(fields.canonical !== undefined ? { canonical: new URL(fields.canonical.trim()).href } : {}),
    ...shareImageOf(file, fields, title, text, options),
  }, converted);
}

/**
 * The text fields as text: a number or true/false there (TOML and JSON front matter are typed, and
 * a YAML alias is read as what it points to) is its text, `title = 2024` the title "2024". A
 * number with a fraction may not read as written (TOML's and JSON's 1.10 is 1.1): a warning says
 * to quote it.
 */
function textFields(file: string, data: Record<string, unknown>, text: string, warn: (message: string) => void): Record<string, unknown> {
  let changed: Record<string, unknown> | undefined;
  const fractions = new Map<string, number>();
  const asText = (key: string, value: unknown): unknown => {
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      if (typeof value === 'number' && !Number.isInteger(value) && !fractions.has(key)) fractions.set(key, value);
      return String(value);
    }
    return value;
  };
  for (const key of TEXT_KEYS) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    const read = Array.isArray(value) ? value.map((item) => asText(key, item)) : asText(key, value);
    if (Array.isArray(value) ? (read as unknown[]).some((item, index) => item !== value[index]) : read !== value) (changed ??= { ...data })[key] = read;
  }
  // One warning a key, naming the first such number.
  for (const [key, value] of fractions) warn(`${keyAt(file, text, key)}: ${key} holds the number ${value}, shown as "${value}"; write it in quotes to keep it exactly as written (1.10 is the number 1.1).`);
  return changed ?? data;
}

/** The title: the front matter's text, or the slug (with a warning when a title was given but is no text, as `title: [a, b]`). */
function titleOf(title: unknown, slug: string, at: (key: string) => string, warn: (message: string) => void): string {
  if (typeof title === 'string' && title.trim() !== '') return title;
  if (title !== undefined && title !== null) {
    warn(`${at('title')}: title ${JSON.stringify(title)} is ${typeof title === 'string' ? 'empty' : 'not text'}; the slug "${slug}" is shown instead. Write the title as text: title: "…"`);
  }
  return slug;
}

/**
 * Tags, kept only when they are a list (the spec's rule). Text where a list belongs (`tags:
 * staking`, Jekyll's `tags: a b`) is not read, with a warning giving the list to write; an item
 * that is no text (a list, a map) is left out with a warning.
 */
function tagsOf(tags: unknown, at: (key: string) => string, warn: (message: string) => void): Pick<Article, 'tags'> {
  if (tags === undefined || tags === null) return {};
  if (!Array.isArray(tags)) {
    const text = String(tags).trim();
    const items = text.includes(',') ? text.split(',') : text.split(/\s+/);
    const list = items.map((item) => item.trim()).filter(Boolean);
    warn(`${at('tags')}: tags is ${JSON.stringify(tags)}, not a list, so the article gets no tags; write it as a list: tags: [${list.join(', ')}]`);
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
  if (left.length > 0) warn(`${at('tags')}: ${left.length === 1 ? `the tag ${JSON.stringify(left[0])} is` : `${left.length} tags (${JSON.stringify(left[0])}, …) are`} not text and left out; write each tag as text: tags: [staking, ethereum]`);
  return { tags: Object.freeze(kept) };
}

/**
 * `slug` in front matter (Jekyll, Hugo and Astro read it) is refused unless it is the file's own:
 * the file name is the slug here, and a slug read from two places would publish the article where
 * its author does not look for it.
 */
function checkSlugField(file: string, slug: string, data: Record<string, unknown>, text: string): void {
  if (!Object.hasOwn(data, 'slug') || (typeof data.slug === 'string' && data.slug.trim() === slug)) return;
  const wanted = typeof data.slug === 'string' ? data.slug.trim() : '';
  const { kind, name } = renamedFor(file, isValidSlug(wanted) ? wanted : '');
  throw catalogueError('FrontMatterSlugNotRead', [JSON.stringify(data.slug), slug, kind, name], keyLocation(file, text, 'slug'));
}

/**
 * Keys with which other generators publish, hold back or move an article. Read as nothing here
 * they would publish what the author meant to keep back (Jekyll's `published: false`, Eleventy's
 * `permalink: false`, Hugo's `expiryDate`) or at another address: each is refused by name, saying
 * what this site reads instead. The value (`true` where it changes nothing) passes.
 */
const PUBLISHING_KEYS: Record<string, { harmless?: (value: unknown) => boolean; meaning: string; advice: string }> = {
  published: { harmless: (value) => value === true, meaning: 'Jekyll keeps an article with published: false unpublished, which this site would publish', advice: 'Write draft: true to keep it unpublished (and remove the published line).' },
  permalink: { meaning: 'the file name gives the article its address here (Jekyll and Eleventy read permalink, Eleventy\'s false writes no page)', advice: 'Rename the file for another address, or write draft: true to keep it unpublished; then remove the permalink line.' },
  publishdate: { meaning: 'Hugo holds an article back until its publishDate; this site reads the date field for that', advice: 'Write the day as date: an article dated after the build time is held back until then.' },
  expirydate: { meaning: 'Hugo unpublishes an article after its expiryDate; articles here stay published', advice: 'Remove the line, and delete the article (or mark it draft: true) when it should go.' },
  unpublishdate: { meaning: 'an article here stays published', advice: 'Remove the line, and delete the article (or mark it draft: true) when it should go.' },
  _build: { meaning: 'Hugo\'s build options (render, list) decide whether a page is written or listed; every article here is both', advice: 'Write draft: true to keep it unpublished, and remove the _build lines.' },
  eleventyexcludefromcollections: { harmless: (value) => value === false, meaning: 'Eleventy leaves such an article off its lists; every published article here is listed', advice: 'Write draft: true to keep it unpublished, or remove the line.' },
};

function checkPublishingKeys(file: string, data: Record<string, unknown>, text: string): void {
  const errors: SsgError[] = [];
  for (const key of Object.keys(data)) {
    const rule = Object.hasOwn(PUBLISHING_KEYS, key.toLowerCase()) ? PUBLISHING_KEYS[key.toLowerCase()]! : undefined;
    if (!rule || rule.harmless?.(data[key])) continue;
    errors.push(catalogueError('FrontMatterKeyNotRead', [key, JSON.stringify(data[key]) ?? String(data[key]), rule.meaning, rule.advice], keyLocation(file, text, key)));
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}

/** `author` as one name or a list: the names, and the byline that joins them. */
function authorsOf(author: string | string[] | undefined): Pick<Article, 'author' | 'authors'> {
  if (author === undefined) return {};
  const names = (Array.isArray(author) ? author : [author]).map((name) => name.replace(/\s+/g, ' ').trim());
  const byline = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return { author: byline, authors: Object.freeze(names) };
}

/**
 * The article's own share image: `image` (a path from the article's folder, or from the public
 * folder when it starts with `/`) and `imageAlt`. The path must stay in the project; whether the
 * file is there and is an image is checked where the card is made from it (the site's files()),
 * which runs again whenever the file changes, in dev too.
 */
function shareImageOf(file: string, fields: { image?: string; imageAlt?: string }, title: string, text: string, options: ParseOptions): { image?: Article['image'] } {
  const at = (key: string) => keyLocation(file, text, key);
  const where = (key: string) => keyAt(file, text, key);
  if (fields.image === undefined) {
    if (fields.imageAlt !== undefined) options.warn(`${where('imageAlt')}: imageAlt is not read without image; give the image it describes, or remove the line.`);
    return {};
  }
  const written = fields.image.trim();
  const root = path.resolve(options.files?.root ?? '.');
  const publicDir = path.resolve(root, options.files?.publicDir ?? path.join('site', 'public'));
  const contentDir = path.resolve(root, options.files?.contentDir ?? 'content');
  const base = written.startsWith('/') ? publicDir : path.join(root, path.dirname(file));
  const absolute = path.resolve(base, written.replace(/^\/+/, ''));
  const relative = path.relative(root, absolute);
  // Only where the build watches (content and the public folder): a card made from a file
  // elsewhere would never be made again when the file changes.
  const within = (dir: string) => {
    const inside = path.relative(dir, absolute);
    return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside);
  };
  if (!within(contentDir) && !within(publicDir)) {
    throw catalogueError('FrontMatterFieldInvalid', [`image "${written}" is outside the content folder and site/public; put the image beside the article or in site/public.`], at('image'));
  }
  if (fields.imageAlt === undefined) options.warn(`${where('image')}: image has no imageAlt; say what it shows for readers who cannot see it (the title is used until then).`);
  return { image: Object.freeze({ file: relative.split(path.sep).join('/'), alt: fields.imageAlt?.trim() ?? title }) };
}

/** The line that ends an excerpt taken from the body, as Jekyll, Hugo and Astro users write it. */
const MORE = /^[ \t]*<!--\s*more\s*-->[ \t]*$/im;

/**
 * The excerpt: `excerpt` in front matter; else `description` (Astro's and Hugo's name for it,
 * read as the excerpt, with a message naming the one this site uses); else the body's text before
 * a `<!--more-->` line; else none.
 */
function excerptOf({ file, text, body, bodyLine }: { file: string; text: string; body: string; bodyLine: number }, data: Record<string, unknown>, warn: (message: string) => void) {
  const where = (key: string) => keyAt(file, text, key);
  if (typeof data.excerpt === 'string') {
    if (typeof data.description === 'string' && data.description !== data.excerpt) warn(`${where('description')}: "description" is not read, as excerpt is given; remove one of them.`);
    return checkedExcerpt(data.excerpt, 'front matter', keyLocation(file, text, 'excerpt'));
  }
  if (typeof data.description === 'string') {
    warn(`${where('description')}: "description" is read as the excerpt (the name this site uses); rename it to excerpt.`);
    return checkedExcerpt(data.description, 'front matter', keyLocation(file, text, 'description'));
  }
  const more = MORE.exec(body);
  return checkedExcerpt(more ? body.slice(0, more.index) : '', 'body', { file, line: bodyLine });
}

/**
 * The excerpt made here, in this process (lists show it before any article is converted): one
 * longer than a summary is refused before its Markdown is read, and one nested deeper than the
 * converter follows is refused by name.
 */
function checkedExcerpt(markdown: string, from: 'front matter' | 'body', at: { file: string; line?: number }) {
  if (markdown.length > MAX_EXCERPT_LENGTH) throw catalogueError('ExcerptTooLong', [markdown.length, MAX_EXCERPT_LENGTH, from], at);
  try {
    return excerptFromMarkdown(markdown, from);
  } catch (error) {
    if (isStackOverflow(error)) throw catalogueError('ArticleTooDeep', ['stack'], at, { cause: error });
    throw error;
  }
}

/** Whether a build shows the article: drafts only with `drafts`, future dates only with `future`. */
export function isPublished(article: Article, options: { drafts?: boolean; future?: boolean; now: Date }): boolean {
  if (article.draft && !options.drafts) return false;
  return Boolean(options.future) || !(Date.parse(article.date) > options.now.getTime());
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
export function reportRemovedHtml(article: Article, removed: readonly RemovedHtml[], warn: (message: string) => void): void {
  const at = (line: number) => `${article.file}:${line + (article.bodyLine ?? 1) - 1}`;
  for (const [line, tags] of byLine(removed.filter((item) => item.escaped))) {
    const [starts, ends] = [tags.filter((tag) => !tag.startsWith('</')), tags.filter((tag) => tag.startsWith('</'))];
    const said = [
      ...(starts.length ? [`${starts.join(', ')} ${starts.length > 1 ? 'are' : 'is'} never closed, so shown as text instead of hiding the rest of the article; close ${starts.length > 1 ? 'each' : 'it'} (${starts.map((tag) => tag.replace('<', '</')).join(', ')}) or remove ${starts.length > 1 ? 'them' : 'it'}`] : []),
      ...(ends.length ? [`${ends.join(', ')} without its ">" is shown as text instead of swallowing what follows; write ${ends.map((tag) => `${tag}>`).join(', ')}`] : []),
    ];
    warn(`${at(line)}: ${said.join('; ')} (see "HTML in articles" in docs/write-an-article.md).`);
  }
  for (const [line, items] of byLine(removed.filter((item) => !item.escaped))) {
    warn(`${at(line)}: ${items.join(', ')} removed: articles may not carry scripts, styles, frames or event handlers (see "HTML in articles" in docs/write-an-article.md).`);
  }
}

/** Two files with one slug: the error names the later file and the one it collides with. */
export function duplicateSlug(existing: Article, article: Article): SsgError {
  return catalogueError('ArticleSlugDuplicate', [article.slug, existing.file], { file: article.file });
}

/** Newest first; articles with the same date (or unreadable dates) keep a stable order by slug. */
export function sortNewestFirst(articles: readonly Article[]): Article[] {
  // Each date is parsed once, not once per comparison.
  const keyed = articles.map((article) => {
    const time = Date.parse(article.date);
    return { article, time: Number.isNaN(time) ? -Infinity : time };
  });
  keyed.sort((a, b) => b.time - a.time || (a.article.slug < b.article.slug ? -1 : a.article.slug > b.article.slug ? 1 : 0));
  return keyed.map((entry) => entry.article);
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
      const existing = bySlug.get(article.slug);
      if (existing) {
        errors.push(duplicateSlug(existing, article));
        continue;
      }
      bySlug.set(article.slug, article);
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

/**
 * Whether a `.md` path below the articles folder (relative to it) is an article by its name.
 * Not: files and folders whose name starts with a dot (editor locks `.#post.md`, macOS `._post.md`,
 * `.DS_Store`, hidden folders) and `README.md` files, which describe a folder.
 */
export function isArticleName(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  const name = parts[parts.length - 1]!;
  return ARTICLE_EXTENSION.test(name) && !README.test(name) && !parts.some((part) => part.startsWith('.'));
}

/**
 * Every article file below `dir` (sub-folders included), relative to `root`, in a stable order.
 * Things named like articles that are not files (a folder `x.md`, a link pointing nowhere) are
 * left out with a warning; a file that cannot be read stops the build, naming it.
 */
export async function readArticleSources(root: string, dir: string, warn: (message: string) => void = () => {}, limits: ArticleLimits = DEFAULT_LIMITS): Promise<ArticleSource[]> {
  const absolute = path.resolve(root, dir);
  let entries: Dirent[];
  try {
    entries = await readdir(absolute, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw catalogueError('ArticleUnreadable', ['folder', (error as Error).message], { file: path.relative(root, absolute) }, { cause: error });
  }
  const files = entries
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => isArticleName(path.relative(absolute, file)))
    .sort();
  // One after another, synchronously: for a thousand small files about ten times faster than
  // a thousand reads queued on the thread pool at once (measured: 11 ms against 150 ms).
  const sources: ArticleSource[] = [];
  for (const file of files) {
    const source = readArticleSource(root, file, warn, limits);
    if (source) sources.push(source);
  }
  return sources;
}

function readArticleSource(root: string, file: string, warn: (message: string) => void, limits: ArticleLimits): ArticleSource | undefined {
  const relative = path.relative(root, file);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) {
    warn(`${relative}: a link to nothing; skipped.`);
    return undefined;
  }
  if (!stat.isFile()) {
    if (!stat.isDirectory()) warn(`${relative}: not a file; skipped.`);
    return undefined; // a folder named x.md: the articles in it are read on their own
  }
  let bytes: Buffer;
  try {
    // A file past the size limit is not read at all (a 30 MB article would be read, then refused).
    if (stat.size > limits.maxBytes) return { file: relative, text: '', problem: catalogueError('ArticleTooLarge', [stat.size, limits.maxBytes], { file: relative }) };
    bytes = readFileSync(file);
  } catch (error) {
    throw catalogueError('ArticleUnreadable', ['article', (error as Error).message], { file: relative }, { cause: error });
  }
  let text: string | undefined;
  try {
    text = articleText(bytes, relative, limits);
  } catch (error) {
    if (error instanceof SsgError) return { file: relative, text: '', problem: error };
    throw error;
  }
  if (text === undefined) {
    warn(emptyArticle(relative));
    return undefined;
  }
  return { file: relative, text };
}

/** The warning for an empty article file, which is skipped. */
export const emptyArticle = (file: string) => `${file}: the file is empty; skipped. Write the article in it, or delete it.`;

/** What a file that is not text starts with, and what it then is. */
const MAGIC: ReadonlyArray<[bytes: number[], what: string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (a Word or OpenDocument file is one)'],
  [[0x52, 0x49, 0x46, 0x46], 'a RIFF file (a WebP image, a WAV sound)'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/**
 * An article file's text: its bytes read as UTF-8, or undefined when it holds nothing but white
 * space (skipped with a warning: an editor's new file, or one emptied by mistake, publishes
 * nothing). A file that is not UTF-8 text (an image, a document, a file saved as Windows-1252 or
 * UTF-16) is refused naming what it looks like and, for a wrong encoding, the line of its first
 * byte that is not UTF-8: read as UTF-8 it would publish garbage or U+FFFD marks.
 */
export function articleText(bytes: Uint8Array, file: string, limits: Pick<ArticleLimits, 'maxBytes'> = DEFAULT_LIMITS): string | undefined {
  checkArticleSize(file, bytes.length, limits);
  const magic = MAGIC.find(([start]) => start.every((byte, index) => bytes[index] === byte));
  if (magic) throw catalogueError('ArticleNotText', ['binary', magic[1]], { file });
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw catalogueError('ArticleNotText', ['utf16'], { file });
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw catalogueError('ArticleNotText', ['binary', 'binary data (it holds NUL bytes)'], { file, line: lineAt(bytes, nul) });
  if (!isUtf8(bytes)) {
    const bad = firstInvalidUtf8(bytes);
    throw catalogueError('ArticleNotText', ['encoding', `0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')}`], { file, line: lineAt(bytes, bad) });
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.replace(/^\ufeff/, '').trim() === '' ? undefined : text;
}

/** The line (from 1) of a byte offset: LF, CRLF and CR each end a line. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index++) {
    if (bytes[index] === 0x0a || (bytes[index] === 0x0d && bytes[index + 1] !== 0x0a)) line++;
  }
  return line;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    if (length === 0) return index;
    if (length > 1) {
      const sequence = Buffer.from(bytes.subarray(index, index + length));
      if (sequence.length < length || !isUtf8(sequence)) return index;
    }
    index += length;
  }
  return bytes.length - 1;
}
