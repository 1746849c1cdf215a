// zod's tree-shakable form: the same checks and messages, and a small part of the chained form's
// code to load at every build's start.
import * as z from 'zod/mini';
import { catalogueError, SsgErrorList, type SsgError } from '../errors/errors.ts';
import { dateShapeProblem, isoDate, keyAt, keyLocation, lineOfKey } from './frontmatter.ts';
import { SHARE_IMAGE_FILE } from './share-image.ts';
import { isValidSlug, renamedFor } from './slug.ts';

/** What a front-matter value is, for an editor's form (src/editor maps each kind to a widget). */
export type FrontMatterKind = 'title' | 'text' | 'longText' | 'date' | 'list' | 'boolean' | 'image' | 'url';

/**
 * The front-matter keys the generator reads, each with its kind: a key added here is read, and
 * shown in the editor, from this one table.
 */
export const FRONT_MATTER_FIELDS: Record<
  string,
  {
    kind: FrontMatterKind;
    label: string;
    hint?: string;
    /** Kept by the editor, not shown: another spelling of a shown field. */ hidden?: true;
  }
> = {
  title: { kind: 'title', label: 'Title' },
  date: { kind: 'date', label: 'Date' },
  excerpt: { kind: 'longText', label: 'Excerpt', hint: 'One or two sentences for the news list and share cards.' },
  description: { kind: 'text', label: 'Description', hint: 'For search engines, when it differs from the excerpt.' },
  tags: { kind: 'list', label: 'Tags' },
  draft: { kind: 'boolean', label: 'Draft', hint: 'A draft is not published.' },
  updated: { kind: 'date', label: 'Updated' },
  author: { kind: 'text', label: 'Author' },
  canonical: { kind: 'url', label: 'Canonical URL', hint: 'Only for an article first published elsewhere.' },
  image: { kind: 'image', label: 'Share image', hint: 'PNG, JPEG, WebP, AVIF or GIF, saved beside the article.' },
  imageAlt: { kind: 'text', label: 'Share image description' },
  aliases: { kind: 'list', label: 'Earlier addresses', hint: 'Paths that should lead here.' },
  redirect_from: { kind: 'list', label: 'Earlier addresses (Jekyll)', hidden: true },
  translationKey: {
    kind: 'text',
    label: 'Translation key',
    hint: "The same on each language's version of an article whose file names differ.",
  },
};

/** The front-matter keys the generator reads. */
export const READ_KEYS = Object.keys(FRONT_MATTER_FIELDS);

/** The front-matter keys whose values are text, read as written (`title: 2024` is "2024", `tags: [1.10]` keeps "1.10"). */
export const TEXT_KEYS = ['title', 'excerpt', 'description', 'tags', 'author', 'imageAlt', 'slug', 'translationKey'];

/** A date that is none: why, when it has a date's shape (`2025-04-31`), else the shape to write. */
function dateMessage(key: string, value: string): string {
  const problem = dateShapeProblem(value);
  return problem
    ? `${key} "${value}" is not a date: ${problem}.`
    : `${key} "${value}" is not a date; write it as "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM", UTC).`;
}

/** A date field: a string that is a date (YAML without quotes gives one too). */
const dateField = (key: string) =>
  z.optional(z.unknown()).check(
    z.superRefine((value, context) => {
      if (typeof value === 'string' && isoDate(value) === undefined) {
        context.addIssue({
          code: 'custom',
          message: dateMessage(key, value),
        });
      }
    }),
  );

const nonEmpty = (key: string, what: string) =>
  z.string({ error: (issue) => `${key} must be ${what} (it is ${JSON.stringify(issue.input)}).` }).check(
    z.refine((value) => value.trim() !== '', {
      message: `${key} is empty; give ${what}, or remove the line.`,
      abort: true,
    }),
  );

/** Earlier addresses of the article: a path, or a list of paths (Hugo's `aliases`, Jekyll's `redirect_from`). */
const movedFrom = (key: string) =>
  z.optional(
    z.union(
      [nonEmpty(key, 'an earlier address of the article'), z.array(nonEmpty(key, 'a list of earlier addresses'))],
      {
        error: (issue) =>
          `${key} must be an earlier address of the article (/blog/old-name), or a list of them (it is ${JSON.stringify(issue.input)}).`,
      },
    ),
  );

/**
 * The fields of front matter the generator reads. Strict where a mistake would publish the wrong
 * thing (`draft: "true"` is a string, and would publish); lenient where the spec gives a default.
 */
const frontMatterSchema = z.looseObject({
  title: z.optional(z.unknown()),
  excerpt: z.optional(z.unknown()),
  tags: z.optional(z.unknown()),
  draft: z.optional(
    z.boolean({
      error: (issue) => `draft must be true or false, without quotes (it is ${JSON.stringify(issue.input)}).`,
    }),
  ),
  date: dateField('date'),
  updated: dateField('updated').check(
    z.refine((value) => value === undefined || typeof value === 'string', {
      message: 'updated must be a date, written as "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM", UTC).',
    }),
  ),
  author: z.optional(
    z.union(
      [
        nonEmpty('author', 'a name'),
        z
          .array(nonEmpty('author', 'a list of names'))
          .check(z.minLength(1, 'author is an empty list; give a name, or remove the line.')),
      ],
      {
        error: (issue) => `author must be a name, or a list of names (it is ${JSON.stringify(issue.input)}).`,
      },
    ),
  ),
  canonical: z.optional(
    nonEmpty('canonical', 'an absolute URL').check(
      z.refine(isAbsoluteHttpUrl, {
        error: (issue) =>
          `canonical "${String(issue.input)}" is not an absolute URL; write the whole address of the original, starting with https:// (with no user name or password in it).`,
      }),
    ),
  ),
  image: z.optional(
    nonEmpty('image', 'the path of an image file').check(
      z.refine((value) => !/^[a-z][a-z0-9+.-]+:/i.test(value.trim()), {
        abort: true,
        error: (issue) =>
          `image "${String(issue.input)}" is a URL; give a file of this site instead (a path from the article's folder, or from site/public when it starts with /).`,
      }),
      z.refine((value) => SHARE_IMAGE_FILE.test(value.trim()), {
        error: (issue) =>
          `image "${String(issue.input)}" is not a PNG, JPEG, WebP, AVIF or GIF file; social networks show no other kind as a share image.`,
      }),
    ),
  ),
  imageAlt: z.optional(nonEmpty('imageAlt', 'a description of the image')),
  aliases: movedFrom('aliases'),
  redirect_from: movedFrom('redirect_from'),
  translationKey: z.optional(nonEmpty('translationKey', 'a name its translations share')),
});

/** Whether a URL is absolute and on the web (http or https), as a canonical URL must be. */
function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.hostname !== '' &&
      url.username === '' &&
      url.password === ''
    );
  } catch {
    return false;
  }
}

/** The front matter checked against the schema: every bad field of the file at once, with its line. */
export function checkFrontMatter(file: string, data: Record<string, unknown>, text: string) {
  const result = frontMatterSchema.safeParse(data);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) =>
    catalogueError('FrontMatterFieldInvalid', [issue.message], {
      file,
      line: lineOfKey(text, String(issue.path[0] ?? '')),
    }),
  );
  throw errors.length === 1 ? errors[0]! : new SsgErrorList(errors);
}

/**
 * The text fields as text: a number or true/false there (TOML and JSON front matter are typed, and
 * a YAML alias is read as what it points to) is its text, `title = 2024` the title "2024". A
 * number with a fraction may not read as written (TOML's and JSON's 1.10 is 1.1): a warning says
 * to quote it.
 */
export function textFields(
  file: string,
  data: Record<string, unknown>,
  text: string,
  warn: (message: string) => void,
): Record<string, unknown> {
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
    if (Array.isArray(value) ? (read as unknown[]).some((item, index) => item !== value[index]) : read !== value)
      (changed ??= { ...data })[key] = read;
  }
  // One warning a key, naming the first such number.
  for (const [key, value] of fractions)
    warn(
      `${keyAt(file, text, key)}: ${key} holds the number ${value}, shown as "${value}"; write it in quotes to keep it exactly as written (1.10 is the number 1.1).`,
    );
  return changed ?? data;
}

/**
 * `slug` in front matter (Jekyll, Hugo and Astro read it) is refused unless it is the file's own:
 * the file name is the slug here, and a slug read from two places would publish the article where
 * its author does not look for it.
 */
export function checkSlugField(file: string, slug: string, data: Record<string, unknown>, text: string): void {
  if (!Object.hasOwn(data, 'slug') || (typeof data.slug === 'string' && data.slug.trim() === slug)) return;
  const wanted = typeof data.slug === 'string' ? data.slug.trim() : '';
  const { kind, name } = renamedFor(file, isValidSlug(wanted) ? wanted : '');
  throw catalogueError(
    'FrontMatterSlugNotRead',
    [JSON.stringify(data.slug), slug, kind, name],
    keyLocation(file, text, 'slug'),
  );
}

/**
 * Keys with which other generators publish, hold back or move an article. Read as nothing here
 * they would publish what the author meant to keep back (Jekyll's `published: false`, Eleventy's
 * `permalink: false`, Hugo's `expiryDate`) or at another address: each is refused by name, saying
 * what this site reads instead. The value (`true` where it changes nothing) passes.
 */
const PUBLISHING_KEYS: Record<string, { harmless?: (value: unknown) => boolean; meaning: string; advice: string }> = {
  published: {
    harmless: (value) => value === true,
    meaning: 'Jekyll keeps an article with published: false unpublished, which this site would publish',
    advice: 'Write draft: true to keep it unpublished (and remove the published line).',
  },
  permalink: {
    meaning:
      "the file name gives the article its address here (Jekyll and Eleventy read permalink, Eleventy's false writes no page)",
    advice:
      'Rename the file for another address, or write draft: true to keep it unpublished; then remove the permalink line.',
  },
  publishdate: {
    meaning: 'Hugo holds an article back until its publishDate; this site reads the date field for that',
    advice: 'Write the day as date: an article dated after the build time is held back until then.',
  },
  expirydate: {
    meaning: 'Hugo unpublishes an article after its expiryDate; articles here stay published',
    advice: 'Remove the line, and delete the article (or mark it draft: true) when it should go.',
  },
  unpublishdate: {
    meaning: 'an article here stays published',
    advice: 'Remove the line, and delete the article (or mark it draft: true) when it should go.',
  },
  _build: {
    meaning:
      "Hugo's build options (render, list) decide whether a page is written or listed; every article here is both",
    advice: 'Write draft: true to keep it unpublished, and remove the _build lines.',
  },
  eleventyexcludefromcollections: {
    harmless: (value) => value === false,
    meaning: 'Eleventy leaves such an article off its lists; every published article here is listed',
    advice: 'Write draft: true to keep it unpublished, or remove the line.',
  },
};

/** Refuses each key another generator publishes, holds back or moves an article with (PUBLISHING_KEYS), all of a file at once. */
export function checkPublishingKeys(file: string, data: Record<string, unknown>, text: string): void {
  const errors: SsgError[] = [];
  for (const key of Object.keys(data)) {
    const rule = Object.hasOwn(PUBLISHING_KEYS, key.toLowerCase()) ? PUBLISHING_KEYS[key.toLowerCase()]! : undefined;
    if (!rule || rule.harmless?.(data[key])) continue;
    errors.push(
      catalogueError(
        'FrontMatterKeyNotRead',
        [key, JSON.stringify(data[key]) ?? String(data[key]), rule.meaning, rule.advice],
        keyLocation(file, text, key),
      ),
    );
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}
