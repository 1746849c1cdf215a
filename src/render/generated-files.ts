// Files a site draws at build time (share images, say), kept in the cache by what they depend on.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pruneEntries, readEntry, readEntrySync, writeEntrySync } from '../cache/store.ts';
import { outputHash, type OutputFile } from '../output/output.ts';
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
  options: { cacheDir: string; salt: string | Uint8Array; concurrency?: number; memo?: DrawnMemo; carries?: (file: string, hash: string) => boolean },
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
  // What each entry held when last read or drawn: with an output that still holds those bytes, a
  // file is carried over from it without its entry being read (a thousand cards were 0.3 s).
  const hashes = options.carries ? readHashes(dir) : {};
  const carried = (index: number): OutputFile | undefined => {
    const hash = hashes[names[index]!];
    const where = files[index]!.path.replace(/^\//, '');
    return hash && options.carries!(where, hash) ? cachedLazily(where, path.join(dir, names[index]!), hash) : undefined;
  };
  let next = 0;
  let failed = false;
  const worker = async () => {
    try {
      // After one file fails no other is started: the build stops with that error.
      for (let at = next++; at < missing.length && !failed; at = next++) {
        const index = missing[at]!;
        output[index] = carried(index) ?? (await produce(files[index]!, dir, names[index]!, context.root, Boolean(options.carries)));
      }
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
  if (options.carries) saveHashes(dir, hashes, names, output);
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

/** The index of what each entry holds (entry name → outputHash), beside the entries. */
const HASHES_FILE = 'hashes.json';

function readHashes(dir: string): Record<string, string> {
  try {
    const payload = readEntrySync(path.join(dir, HASHES_FILE));
    const hashes = payload ? (JSON.parse(payload.toString('utf8')) as unknown) : {};
    return hashes && typeof hashes === 'object' && !Array.isArray(hashes) ? Object.fromEntries(Object.entries(hashes).filter(([, hash]) => typeof hash === 'string')) : {};
  } catch {
    return {};
  }
}

/** Keeps the index of this call's entries, when it changed; never fails the build (without it, entries are read). */
function saveHashes(dir: string, before: Record<string, string>, names: readonly string[], output: readonly OutputFile[]): void {
  const hashes = Object.fromEntries(names.flatMap((name, index) => (output[index]?.hash ? [[name, output[index]!.hash!]] : [])));
  if (JSON.stringify(hashes) === JSON.stringify(before)) return;
  try {
    writeEntrySync(path.join(dir, HASHES_FILE), Buffer.from(JSON.stringify(hashes)));
  } catch {
    // Not kept.
  }
}

/**
 * A drawn file the output will carry over from its folder (it holds these bytes): its contents
 * are read from the cache entry only if the output asks after all (its copy changed meanwhile).
 */
function cachedLazily(where: string, entry: string, hash: string): OutputFile {
  return {
    path: where,
    hash,
    get contents() {
      const bytes = readEntrySync(entry);
      if (!bytes) throw new Error(`the cached copy of /${where} is gone (.cache/ changed while the build ran); build again`);
      return bytes;
    },
  };
}

/** The file with its hash when the index of hashes is kept (a staged output): dev's in-place output never asks for one. */
const withHash = (file: OutputFile, hashed: boolean): OutputFile => (hashed ? { ...file, hash: outputHash(file.contents) } : file);

async function produce(file: GeneratedFile, dir: string, name: string, root: string, hashed: boolean): Promise<OutputFile> {
  const entry = path.join(dir, name);
  const cached = await readEntry(entry);
  const where = file.path.replace(/^\//, '');
  if (cached) return withHash({ path: where, contents: cached }, hashed);
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
  return withHash({ path: where, contents }, hashed);
}
