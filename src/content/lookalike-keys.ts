import { catalogueError, SsgErrorList, type SsgError } from '../errors/errors.ts';
import { keyAt, keyLocation } from './frontmatter.ts';
import { nearestKey } from './schema-keys.ts';
import { READ_KEYS } from './frontmatter-schema.ts';

/** Other generators' names for keys the generator reads (slips of the keyboard are found by distance). */
const LOOKALIKE_KEYS: Record<string, string> = {
  summary: 'excerpt',
  abstract: 'excerpt',
  published: 'draft',
  publish: 'draft',
  categories: 'tags',
  category: 'tags',
  name: 'title',
  headline: 'title',
  datum: 'date',
  pubdate: 'date',
  // The names other generators use (Astro, Hugo, Jekyll, Eleventy) for fields this one reads.
  lastmod: 'updated',
  modified: 'updated',
  updateddate: 'updated',
  updated_at: 'updated',
  datemodified: 'updated',
  last_modified_at: 'updated',
  heroimage: 'image',
  cover: 'image',
  coverimage: 'image',
  cover_image: 'image',
  featuredimage: 'image',
  featured_image: 'image',
  thumbnail: 'image',
  ogimage: 'image',
  og_image: 'image',
  imagealt: 'imageAlt',
  image_alt: 'imageAlt',
  alt: 'imageAlt',
  heroimagealt: 'imageAlt',
  by: 'author',
  writer: 'author',
  canonicalurl: 'canonical',
  canonical_url: 'canonical',
};

/**
 * Keys not read that look like read ones. A slip of the keyboard (`darft`, `tittle`, `tgas`) is an
 * error, since what it meant (a draft held back) would silently not happen; another generator's
 * name for a field (`summary`, `lastmod`) is a warning. A key the collection's schema declares is
 * neither; a key far from every known one is left to the schema.
 */
export function checkLookalikeKeys(
  file: string,
  data: Record<string, unknown>,
  text: string,
  warn: (message: string) => void,
  declared: ReadonlySet<string> = new Set(),
): void {
  const known = [...READ_KEYS, ...declared];
  const errors: SsgError[] = [];
  let misspelt = 0;
  let warned = 0;
  let more = 0;
  for (const key of Object.keys(data)) {
    if (READ_KEYS.includes(key) || declared.has(key)) continue;
    // A slip beside the key it was meant as (`darft: true` under `draft: false`) changes nothing either.
    const nearest = nearestKey(key, known);
    if (nearest) {
      // A file of thousands of slips is told about the first ten, and how many more there are.
      if (++misspelt <= 10)
        errors.push(catalogueError('FrontMatterKeyMisspelt', ['key', key, nearest], keyLocation(file, text, key)));
      continue;
    }
    const lower = key.toLowerCase();
    const meant = Object.hasOwn(LOOKALIKE_KEYS, lower) ? LOOKALIKE_KEYS[lower] : undefined;
    if (!meant || Object.hasOwn(data, meant)) continue;
    // A file of thousands of such keys is told about the first ten, and how many more there are.
    if (warned === 10) {
      more++;
      continue;
    }
    warned++;
    warn(`${keyAt(file, text, key)}: "${key}" in front matter is not read; did you mean ${meant}?`);
  }
  if (more > 0)
    warn(`${file}: ${more} more keys in front matter are not read and look like ones that are; see the ten above.`);
  if (misspelt > 10) errors.push(catalogueError('FrontMatterKeyMisspelt', ['more', misspelt - 10], { file }));
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}
