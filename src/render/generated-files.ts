// Files a site draws at build time (share images, say), kept in the cache by what they depend on.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pruneEntries, readEntry, writeEntrySync } from '../cache/store.ts';
import type { OutputFile } from '../output/output.ts';
import type { GeneratedFile, GeneratedFilesContext, SiteDefinition } from './site-definition.ts';
import { catalogueError } from '../errors.ts';
import { siteCodeError } from '../site-code-error.ts';

const SAFE_PATH = /^(?:[A-Za-z0-9][A-Za-z0-9._~-]*\/)*[A-Za-z0-9][A-Za-z0-9._~-]*\.[A-Za-z0-9]+$/;

/** One entry per file and content: its path, its key and the site code that draws it. */
function entryName(file: GeneratedFile, salt: string): string {
  return `${createHash('sha256').update(JSON.stringify([file.path, file.key, salt])).digest('hex')}.bin`;
}

/** Files kept in memory by their cache entry's name, between the rebuilds of one dev session. */
export type DrawnMemo = Map<string, OutputFile>;

/**
 * Draws the site's generated files, taking each from `memo`, else from `cacheDir`, when its path,
 * key and the site code (`salt`) are as before; entries no longer used are pruned. At most
 * `concurrency` drawn at once. `memo` is left holding exactly the files of this call.
 */
export async function generateFiles<Data>(
  site: SiteDefinition<Data>,
  context: GeneratedFilesContext<Data>,
  options: { cacheDir: string; salt: string | Uint8Array; concurrency?: number; memo?: DrawnMemo },
): Promise<OutputFile[]> {
  let files: GeneratedFile[];
  try {
    files = site.files?.(context) ?? [];
  } catch (error) {
    throw siteCodeError('GeneratedFileFailed', "The site's files()", error, context.root);
  }
  const memo = options.memo;
  if (files.length === 0) {
    memo?.clear();
    return [];
  }
  const salt = createHash('sha256').update(options.salt).digest('hex');
  const dir = path.join(options.cacheDir, 'generated');
  const seen = new Set<string>();
  for (const file of files) checkPath(file, seen);
  const started = Date.now();
  const names = files.map((file) => entryName(file, salt));
  const output: OutputFile[] = names.map((name) => memo?.get(name)!);
  const missing = output.flatMap((file, index) => (file ? [] : [index]));
  if (memo && missing.length === 0 && memo.size === names.length) return output;
  let next = 0;
  let failed = false;
  const worker = async () => {
    try {
      // After one file fails no other is started: the build stops with that error.
      for (let at = next++; at < missing.length && !failed; at = next++) output[missing[at]!] = await produce(files[missing[at]!]!, dir, names[missing[at]!]!, context.root);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, missing.length) }, worker));
  if (memo) {
    memo.clear();
    names.forEach((name, index) => memo.set(name, output[index]!));
  }
  try {
    pruneEntries(dir, { used: new Set(names), isEntry: (name) => /^[0-9a-f]{64}\.bin$/.test(name), since: started });
  } catch {
    // Pruning only saves space; the next build tries again.
  }
  return output;
}

/** A path the site may write a file of its own at: `/news/feed.xml`, never `../x` or `/x/` or `/x`. */
export function isSiteFilePath(file: string): boolean {
  const where = file.replace(/^\//, '');
  return file.startsWith('/') && SAFE_PATH.test(where) && !where.split('/').includes('..');
}

function checkPath(file: GeneratedFile, seen: Set<string>): void {
  const where = file.path.replace(/^\//, '');
  if (!isSiteFilePath(file.path)) {
    throw catalogueError('GeneratedFilePathInvalid', ['file', file.path]);
  }
  if (seen.has(where)) throw catalogueError('GeneratedFileClash', ['twice', file.path]);
  seen.add(where);
}

async function produce(file: GeneratedFile, dir: string, name: string, root: string): Promise<OutputFile> {
  const entry = path.join(dir, name);
  const cached = await readEntry(entry);
  const where = file.path.replace(/^\//, '');
  if (cached) return { path: where, contents: cached };
  let contents: Uint8Array;
  try {
    contents = await file.render();
  } catch (error) {
    // Made from a content file (an article's own image): the author's to fix, named as such.
    if (file.source) throw catalogueError('GeneratedFileSourceInvalid', [file.path, error instanceof Error ? error.message : String(error)], { file: file.source }, { cause: error });
    throw siteCodeError('GeneratedFileFailed', `Drawing ${file.path}`, error, root);
  }
  if (!(contents instanceof Uint8Array)) {
    throw catalogueError('GeneratedFileNotBytes', [file.path, contents]);
  }
  try {
    writeEntrySync(entry, contents);
  } catch {
    // Not kept: the next build draws it again.
  }
  return { path: where, contents };
}
