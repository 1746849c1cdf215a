import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { SsgError, SsgErrorList } from './errors.ts';
import { bodyOf, splitFrontMatter } from './frontmatter.ts';

/** A news article as the spec defines it, plus where it came from and its converted body. */
export interface Article {
  slug: string;
  title: string;
  date: string;
  excerpt: string;
  tags?: string[];
  markdown: string;
  /** The body converted to HTML; filled in by the Markdown stage. */
  html: string;
  /** The whole front matter, for fields beyond the ones above. */
  data: Record<string, unknown>;
  draft: boolean;
  /** The source file, relative to the project root. */
  file: string;
}

export interface ArticleSource {
  /** Path relative to the project root, used in messages and as the identity of the source. */
  file: string;
  text: string;
}

export interface ParseOptions {
  /** The build time: the date of an article whose front matter gives none. */
  now: Date;
  warn: (message: string) => void;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

export function slugOf(file: string): string {
  return path.basename(file).replace(/\.md$/i, '');
}

/** One article from one file, with every default of the spec applied; html is left empty. */
export function parseArticle(source: ArticleSource, options: ParseOptions): Article {
  checkSlug(source.file);
  const { data, body } = splitFrontMatter(source.text, source.file);
  return articleFromParts(source.file, data, body, options);
}

function checkSlug(file: string): string {
  const slug = slugOf(file);
  if (!isValidSlug(slug)) throw new SsgError('ArticleSlugInvalid', `"${slug}" is not a safe URL slug.`, { file });
  return slug;
}

/** What a parsed file is remembered as between builds: its front matter and converted body. */
export interface ParsedParts {
  data: Record<string, unknown>;
  html: string;
}

/** An article from front matter already parsed and its body: the spec's defaults applied. */
export function articleFromParts(file: string, data: Record<string, unknown>, body: string, options: ParseOptions): Article {
  const slug = slugOf(file);

  let date: string;
  if (typeof data.date === 'string') {
    date = data.date;
    if (Number.isNaN(Date.parse(date))) {
      options.warn(`${file}: date "${date}" is not a date a browser can read; it is shown as written.`);
    }
  } else {
    date = options.now.toISOString();
    options.warn(
      `${file}: no date in front matter${data.date === undefined ? '' : ' (it is not a string)'}; using the build time ${date}.`,
    );
  }

  const article: Article = {
    slug,
    title: typeof data.title === 'string' && data.title !== '' ? data.title : slug,
    date,
    excerpt: typeof data.excerpt === 'string' ? data.excerpt : '',
    markdown: body,
    html: '',
    data,
    draft: data.draft === true,
    file,
  };
  if (Array.isArray(data.tags)) article.tags = data.tags.map(String);
  return article;
}

/** Two files with one slug: the error names the later file and the one it collides with. */
export function duplicateSlug(existing: Article, article: Article): SsgError {
  return new SsgError('ArticleSlugDuplicate', `The slug "${article.slug}" is already used by ${existing.file}.`, { file: article.file });
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
    try {
      const parts = remembered?.(source);
      let article: Article;
      if (parts) {
        checkSlug(source.file);
        article = articleFromParts(source.file, parts.data, bodyOf(source.text), options);
        article.html = parts.html;
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
      else throw error;
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return sortNewestFirst([...bySlug.values()]);
}

/** Every `*.md` file below `dir` (sub-folders included), relative to `root`, in a stable order. */
export async function readArticleSources(root: string, dir: string): Promise<ArticleSource[]> {
  const absolute = path.resolve(root, dir);
  let entries: string[];
  try {
    entries = await readdir(absolute, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = entries.filter((entry) => entry.toLowerCase().endsWith('.md')).sort();
  // One after another, synchronously: for a thousand small files about ten times faster than
  // a thousand reads queued on the thread pool at once (measured: 11 ms against 150 ms).
  return files.map((entry) => ({
    file: path.relative(root, path.join(absolute, entry)),
    text: readFileSync(path.join(absolute, entry), 'utf8'),
  }));
}
