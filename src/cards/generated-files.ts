// Files a site draws at build time (share images, say), kept in the cache by what they depend on.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pruneEntries, readEntry, readEntrySync, writeEntrySync } from '../cache/store.ts';
import { outputHash, type OutputFile } from '../output/output-file.ts';
import type { GeneratedFile, GeneratedFilesContext, SiteDefinition } from '../render/site-definition.ts';
import { isSiteFilePath } from '../render/site-files.ts';
import { catalogueError } from '../errors/errors.ts';
import { siteCodeError } from '../errors/site-code-error.ts';
import { drawHere, type DrawMany } from '../content/drawing.ts';

/** One entry per file and content: its path, its key and the code that draws it. */
function entryName(file: GeneratedFile, salt: string): string {
  return `${createHash('sha256')
    .update(JSON.stringify([file.path, file.key, salt]))
    .digest('hex')}.bin`;
}

/** Files kept in memory by their cache entry's name, between the rebuilds of one dev session. */
export type DrawnMemo = Map<string, OutputFile>;

export interface GenerateOptions {
  cacheDir: string;
  /** The code that draws a file: the same for all, or each file's own (its drawer's module and what that imports). */
  salt: string | Uint8Array | ((file: GeneratedFile) => string);
  concurrency?: number;
  memo?: DrawnMemo;
  carries?: (file: string, hash: string) => boolean;
  /** Where files with `draw` are drawn; without it, here, one after another. */
  draw?: DrawMany;
}

/** A file's drawer, named and held by the site; a file has it or render(), never neither. */
function checkDrawing(file: GeneratedFile, drawers: SiteDefinition['drawers']): void {
  if (file.draw === undefined) {
    if (typeof file.render !== 'function') throw catalogueError('GeneratedFileDrawerUnknown', ['none', file.path]);
    return;
  }
  const name = file.draw?.drawer;
  if (typeof name !== 'string' || !drawers || !Object.hasOwn(drawers, name) || typeof drawers[name] !== 'function') {
    throw catalogueError('GeneratedFileDrawerUnknown', [
      'unknown',
      file.path,
      String(name),
      Object.keys(drawers ?? {}),
    ]);
  }
}

/**
 * Draws the site's generated files, each taken from `memo` or `cacheDir` while its path, key and
 * drawing code (`salt`) are unchanged; unused entries are pruned and `memo` keeps only this call's
 * files. Files with `draw` go to `options.draw` at once, render() ones `concurrency` at a time.
 * A build (no memo) reads a cached file back when the output writes it, so no bytes are held meanwhile.
 */
export async function generateFiles<Data>(
  site: SiteDefinition<Data>,
  context: GeneratedFilesContext<Data>,
  options: GenerateOptions,
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
  const saltOf = saltsOf(options.salt);
  const dir = path.join(options.cacheDir, 'generated');
  const seen = new Set<string>();
  for (const file of files) {
    checkPath(file, seen);
    checkDrawing(file, site.drawers);
  }
  const started = Date.now();
  const names = files.map((file) => entryName(file, saltOf(file)));
  const output: OutputFile[] = names.map((name) => memo?.get(name)!);
  const missing = output.flatMap((file, index) => (file ? [] : [index]));
  if (memo && missing.length === 0 && memo.size === names.length) return output;
  // What each entry held when last read or drawn: with an output that still holds those bytes, a
  // file is carried over from it without its entry being read.
  const hashes = options.carries ? readHashes(dir) : {};
  const hashed = Boolean(options.carries);
  const entryOf = (index: number) => path.join(dir, names[index]!);
  const whereOf = (index: number) => files[index]!.path.replace(/^\//, '');
  const toDraw: number[] = [];
  await eachAtMost(missing, options.concurrency ?? 4, async (index) => {
    const hash = hashes[names[index]!];
    if (hash && options.carries!(whereOf(index), hash))
      return void (output[index] = cachedLazily(whereOf(index), entryOf(index), hash));
    const cached = await readEntry(entryOf(index));
    if (cached) output[index] = kept({ path: whereOf(index), contents: cached }, entryOf(index), hashed, !memo);
    else toDraw.push(index);
  });
  toDraw.sort((a, b) => a - b);
  const finish = (index: number, contents: unknown) => {
    if (!(contents instanceof Uint8Array))
      throw catalogueError('GeneratedFileNotBytes', [files[index]!.path, contents]);
    output[index] = kept({ path: whereOf(index), contents }, writeEntry(entryOf(index), contents), hashed, !memo);
  };
  await drawAll(files, toDraw, { ...options, root: context.root, drawers: site.drawers }, finish);
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

/** Each file's salt as text: one hash for all when the salt is the same for all. */
function saltsOf(salt: GenerateOptions['salt']): (file: GeneratedFile) => string {
  if (typeof salt === 'function') return salt;
  const hash = createHash('sha256').update(salt).digest('hex');
  return () => hash;
}

/** Runs `work` on every item, at most `limit` at once; the first failure stops new starts and is thrown. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    try {
      for (let at = next++; at < items.length && !failed; at = next++) await work(items[at]!);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Draws the files at `indexes`: those with `draw` handed over at once (to the helpers), the
 * others rendered here; `finish` takes each file's bytes. The first failure is thrown, as the
 * author's (a file made from content) or as the site code's.
 */
async function drawAll(
  files: readonly GeneratedFile[],
  indexes: readonly number[],
  options: GenerateOptions & { root: string; drawers: SiteDefinition['drawers'] },
  finish: (index: number, contents: unknown) => void,
): Promise<void> {
  const failure = (index: number, error: unknown) => {
    const file = files[index]!;
    // Made from a content file (an article's own image): the author's to fix, named as such.
    if (file.source)
      return catalogueError(
        'GeneratedFileSourceInvalid',
        [file.path, error instanceof Error ? error.message : String(error)],
        { file: file.source },
        { cause: error },
      );
    return siteCodeError('GeneratedFileFailed', `Drawing ${file.path}`, error, options.root);
  };
  const withDrawer = indexes.filter((index) => files[index]!.draw);
  const draw = options.draw ?? drawHere(options.drawers, options.root);
  const drawn = draw(
    withDrawer.map((index) => ({
      path: files[index]!.path,
      drawer: files[index]!.draw!.drawer,
      input: files[index]!.draw!.input,
    })),
  );
  drawn.forEach((promise) => promise.catch(() => {})); // the first failure is thrown below; the rest are not waited for
  const byDrawer = Promise.all(
    drawn.map((promise, position) => {
      const index = withDrawer[position]!;
      return promise.then(
        (contents) => finish(index, contents),
        (error) => Promise.reject(failure(index, error)),
      );
    }),
  );
  // A settled promise keeps its value: held in this list, every file's bytes would stay until the
  // last is drawn. Each is held by its own chain only now.
  drawn.length = 0;
  const rendered = eachAtMost(
    indexes.filter((index) => !files[index]!.draw),
    options.concurrency ?? 4,
    async (index) => {
      let contents: unknown;
      try {
        contents = await files[index]!.render!();
      } catch (error) {
        throw failure(index, error);
      }
      finish(index, contents);
    },
  );
  await Promise.all([byDrawer, rendered]);
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
    return hashes && typeof hashes === 'object' && !Array.isArray(hashes)
      ? Object.fromEntries(Object.entries(hashes).filter(([, hash]) => typeof hash === 'string'))
      : {};
  } catch {
    return {};
  }
}

/** Keeps the index of this call's entries, when it changed; never fails the build (without it, entries are read). */
function saveHashes(
  dir: string,
  before: Record<string, string>,
  names: readonly string[],
  output: readonly OutputFile[],
): void {
  const hashes = Object.fromEntries(
    names.flatMap((name, index) => (output[index]?.hash ? [[name, output[index]!.hash!]] : [])),
  );
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
      if (!bytes)
        throw new Error(`the cached copy of /${where} is gone (.cache/ changed while the build ran); build again`);
      return bytes;
    },
  };
}

/** Writes a drawn file's cache entry: its path, or undefined when it could not be kept (the next build draws it again). */
function writeEntry(entry: string, contents: Uint8Array): string | undefined {
  try {
    writeEntrySync(entry, contents);
    return entry;
  } catch {
    return undefined;
  }
}

/**
 * A drawn or cached file, with its hash when the index of hashes is kept (a staged output; dev's
 * in-place output never asks for one). Read back from its entry when the output writes it, if
 * `fromEntry` and it has one: a build holds no file's bytes from drawing it to writing it.
 */
function kept(
  file: { path: string; contents: Uint8Array },
  entry: string | undefined,
  hashed: boolean,
  fromEntry: boolean,
): OutputFile {
  const hash = hashed ? outputHash(file.contents) : undefined;
  if (entry && fromEntry && hash) return cachedLazily(file.path, entry, hash);
  return hash ? { ...file, hash } : file;
}
