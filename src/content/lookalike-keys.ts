import { keyAt } from './frontmatter.ts';
import { READ_KEYS } from './frontmatter-schema.ts';

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

/** Edits (insert, delete, replace, swap two letters) between two short words, or more than `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The read key a key not read was probably meant to be: another generator's name for it, or a slip of the keyboard. */
function meantKey(key: string): string | undefined {
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

/** A warning for each key that is not read but looks like one that is (`summary`: did you mean excerpt?). */
export function warnLookalikeKeys(
  file: string,
  data: Record<string, unknown>,
  text: string,
  warn: (message: string) => void,
): void {
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
  if (more > 0)
    warn(`${file}: ${more} more keys in front matter are not read and look like ones that are; see the ten above.`);
}
