// The search index alone: Pagefind over the article pages of a built site, as the build hands it
// them (there from memory, here from dist/), for its share of a build measured in the same run.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { close, createIndex } from 'pagefind';

/**
 * Pagefind's own CLI over the whole of `dist` (every page, as `npx pagefind --site dist` would),
 * writing its bundle into a folder of its own: the reference the build's search is held to.
 */
export async function pagefindCliTime(dist: string): Promise<number> {
  const require = createRequire(import.meta.url);
  const binary = require.resolve(`@pagefind/${process.platform}-${process.arch}/bin/pagefind_extended`);
  const out = mkdtempSync(path.join(tmpdir(), 'ssg-bench-pagefind-'));
  const started = performance.now();
  try {
    await promisify(execFile)(binary, ['--site', dist, '--output-path', out, '--silent']);
    return performance.now() - started;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

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
