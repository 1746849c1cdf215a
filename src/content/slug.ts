import path from 'node:path';
import { catalogueError } from '../errors/errors.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The extensions of article files: `.md`, `.markdown` as Jekyll writes them, and `.mdx`. */
export const ARTICLE_EXTENSION = /\.(?:md|markdown|mdx)$/i;
const INDEX = /^index\.(?:md|markdown|mdx)$/i;

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
function suggestedSlug(name: string): string {
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

/** The file's slug, or an error naming the file or folder to rename and the name to give it. */
export function checkSlug(file: string): string {
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
export function renamedFor(file: string, slug: string): { kind: 'file' | 'folder'; name: string } {
  const kind = INDEX.test(path.basename(file)) ? 'folder' : 'file';
  if (slug === '') return { kind, name: '' };
  return { kind, name: kind === 'folder' ? slug : `${slug}${ARTICLE_EXTENSION.exec(file)?.[0] ?? '.md'}` };
}
