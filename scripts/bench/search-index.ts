// The search index alone: Pagefind over the article pages of a built site, as the build hands it
// them (there from memory, here from dist/), for its share of a build measured in the same run.
import { close, createIndex } from 'pagefind';

/** Milliseconds to index the article pages of `dist` and make the index's files, and how many pages. */
export async function searchIndexTime(dist: string): Promise<{ ms: number; pages: number }> {
  const started = performance.now();
  try {
    const { index, errors } = await createIndex({});
    if (!index) throw new Error(`Pagefind did not start: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: dist, glob: 'news/*.html' });
    const files = await index.getFiles();
    if (files.errors.length > 0) throw new Error(files.errors.join('; '));
    return { ms: performance.now() - started, pages: added.page_count };
  } finally {
    await close();
  }
}
