import { createHash } from 'node:crypto';
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync, type Dirent, type Stats } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readEntrySync, writeEntrySync } from '../cache/store.ts';
import { catalogueError, type ErrorDetails, type SsgError } from '../errors.ts';
import { noInterrupts, type Interrupts } from '../interrupt.ts';
import { present } from './output-lock.ts';
import { KEPT_ENTRIES, OUTPUT_MARKER, markOutput, mountPointFailure } from './output-target.ts';

export interface OutputFile {
  /** Path inside the output folder, forward slashes. */
  path: string;
  /** The bytes; may be a getter that reads them only when asked (a cached drawn file, see `hash`). */
  readonly contents: string | Uint8Array;
  /**
   * `outputHash` of the contents, when known without them: a staged output that can carry the
   * file over from the output folder (the same hash there) then never asks for the contents.
   */
  hash?: string;
}

/**
 * Lists every file below `dir`, as paths relative to it with forward slashes. Symlinks are listed
 * as files, whatever they lead to: the public folder is copied with them as they are, and a build
 * writing a page over one, or into one that leads to a folder, would write where it leads.
 */
export async function listFiles(dir: string): Promise<string[]> {
  return (await listEntries(dir)).files;
}

/** The files below `dir` (as listFiles lists them) and its folders, empty ones too. */
async function listEntries(dir: string): Promise<{ files: string[]; folders: string[] }> {
  if (!existsSync(dir)) return { files: [], folders: [] };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: Dirent) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
  return {
    files: entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map(relative),
    folders: entries.filter((entry) => entry.isDirectory()).map(relative),
  };
}

/** Writes files with a bounded number in flight: fast, without exhausting file handles. */
export async function writeFiles(dir: string, files: readonly OutputFile[], concurrency = 64): Promise<void> {
  const folders = new Set(files.map((file) => path.dirname(path.join(dir, file.path))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await writeFile(path.join(dir, file.path), file.contents);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
}

/** The same, synchronously: for the few files of an incremental rebuild. */
export function writeFilesSync(dir: string, files: readonly OutputFile[]): void {
  for (const folder of new Set(files.map((file) => path.dirname(path.join(dir, file.path))))) mkdirSync(folder, { recursive: true });
  for (const file of files) writeFileSync(path.join(dir, file.path), file.contents);
}

/**
 * Puts the staging folder in the place of the output folder. Synchronous, so that no signal
 * handler runs between the renames; a build killed between them leaves `previous`, which the next
 * build renames back (see cleanLeftovers). Entries a deploy checkout keeps (`.git`, `CNAME`) move
 * from the old folder into the new one unless the new site has its own.
 */
function swapIn(staging: string, outDir: string, previous: string): boolean {
  const hadPrevious = present(outDir);
  if (hadPrevious) renameSync(outDir, previous);
  try {
    renameSync(staging, outDir);
  } catch (error) {
    if (hadPrevious) renameSync(previous, outDir);
    throw error;
  }
  for (const entry of hadPrevious ? KEPT_ENTRIES : []) {
    const from = path.join(previous, entry);
    if (present(from) && !present(path.join(outDir, entry))) renameSync(from, path.join(outDir, entry));
  }
  return hadPrevious;
}

/**
 * An entry of the public folder at a path the build makes a page, asset or site file for (or
 * needs a folder at, or writes as a file above it: the case says which), named by its path.
 */
export function publicFileClash(publicDir: string, clash: ErrorDetails<'PublicFileClash'>): SsgError {
  return catalogueError('PublicFileClash', clash, {
    file: path.join(path.basename(path.dirname(publicDir)), path.basename(publicDir), clash[1]),
  });
}

const swapFailed = (outDir: string, error: unknown) =>
  mountPointFailure(error, outDir) ??
  catalogueError('OutputSwapFailed', [outDir, (error as Error).message], {}, { cause: error });

/**
 * A file's or folder's size, modification and change time and inode. Any write, rename, `touch`
 * or `chmod` changes one of them, and the change time cannot be set back (`touch -r` and `cp -p`
 * set the modification time only).
 */
export type Fingerprint = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/** What the last build left in an output folder: each file's content hash and fingerprint. */
interface OutputManifest {
  version: 2;
  outDir: string;
  /** Generated files: path → sha1 of the contents. */
  hashes: Record<string, string>;
  /** Public files: path → [size, mtimeMs] of the source in public/. */
  publicSources: Record<string, [number, number]>;
  /**
   * Every file of the output (generated, and the copies of the public files) and every folder
   * holding one ('' for the output folder itself: a file added or removed changes its folder).
   */
  stats: Record<string, Fingerprint>;
}

const MANIFEST_VERSION = 2;

/** The hash the output manifest records of a file's contents. */
export const outputHash = (contents: string | Uint8Array) => createHash('sha1').update(contents).digest('base64');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumbers = (value: unknown, length: number) => Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number');

/** The manifest, if its entry is intact and of the expected shape (anything else: rebuild). */
function readManifest(file: string, outDir: string): OutputManifest | undefined {
  const payload = readEntrySync(file);
  if (!payload) return undefined;
  try {
    const manifest = JSON.parse(payload.toString('utf8')) as OutputManifest;
    if (manifest.version !== MANIFEST_VERSION || manifest.outDir !== outDir) return undefined;
    const { hashes, publicSources, stats } = manifest as Partial<OutputManifest>;
    const shaped =
      isRecord(hashes) && Object.values(hashes).every((hash) => typeof hash === 'string') &&
      isRecord(publicSources) && Object.values(publicSources).every((entry) => isNumbers(entry, 2)) &&
      isRecord(stats) && Object.values(stats).every((entry) => isNumbers(entry, 4));
    return shaped ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** The fingerprint of what a stat found. */
export const fingerprintOfStat = (stat: Stats): Fingerprint => [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];

// Of the entry itself: a public symlink is copied as it is, and its target may be anywhere (or nowhere).
const fingerprintOf = (file: string): Fingerprint => fingerprintOfStat(lstatSync(file));

const sameFingerprint = (file: string, recorded: Fingerprint) => {
  try {
    return fingerprintOf(file).every((value, index) => value === recorded[index]);
  } catch {
    return false;
  }
};

const sameSource = (file: string, [size, mtimeMs]: [number, number]) => {
  try {
    const stat = lstatSync(file);
    return (stat.isFile() || stat.isSymbolicLink()) && stat.size === size && stat.mtimeMs === mtimeMs;
  } catch {
    return false;
  }
};

/**
 * Whether the output folder still holds exactly what the manifest recorded (no file or folder
 * added, removed, written or touched since, public copies included) and the public files are the
 * ones it was built from. Only then can a build that makes the same bytes leave the folder alone.
 */
function outputIntact(manifest: OutputManifest, outDir: string, publicDir: string, publicFiles: string[]): boolean {
  if (publicFiles.length !== Object.keys(manifest.publicSources).length) return false;
  for (const file of publicFiles) {
    const recorded = manifest.publicSources[file];
    if (!recorded || !sameSource(path.join(publicDir, file), recorded)) return false;
  }
  // Folder stats instead of listing every folder: a stat each, where reading a thousand folders
  // took 70-140 ms here.
  return Object.entries(manifest.stats).every(([entry, recorded]) => sameFingerprint(path.join(outDir, entry), recorded));
}

/** The manifest of the last build, when the output folder still holds exactly what it lists. */
function intactManifest(manifestFile: string | undefined, outDir: string, publicDir: string, publicFiles: string[]): OutputManifest | undefined {
  const manifest = manifestFile && existsSync(outDir) ? readManifest(manifestFile, outDir) : undefined;
  return manifest && outputIntact(manifest, outDir, publicDir, publicFiles) ? manifest : undefined;
}

/** Whether `outDir` still holds exactly what the last build recorded in `manifestFile`, from the same public files. */
export async function outputStillIntact(manifestFile: string, outDir: string, publicDir: string): Promise<boolean> {
  return intactManifest(manifestFile, outDir, publicDir, await listFiles(publicDir)) !== undefined;
}

/** Writes files into the staging folder as they are made; a failure waits in `writes` for commit to report it. */
function stagingWriter(staging: string) {
  // Each folder made after its parent, and the staging folder itself never (startStaging made it):
  // once it is removed (an interrupt's clean-up, anyone), later writes fail instead of making it
  // again, as `mkdir -p` did, and of committing a site holding only what came after.
  const folders = new Set<string>();
  const ensureFolder = (folder: string): void => {
    if (folder === staging || folders.has(folder) || path.dirname(folder) === folder) return;
    ensureFolder(path.dirname(folder));
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // a file there: the write into it fails (ENOTDIR)
    }
    folders.add(folder);
  };
  const writes: Promise<void>[] = [];
  /** The files in the staging folder now, written or carried over. */
  const onDisk = new Set<string>();

  /**
   * Carries a file over from the output folder as a second name for the same bytes (a hard link)
   * instead of writing them again: only when it is still the file the manifest recorded (same
   * inode, size and modification time; a link changes the change time only). False when it
   * cannot be (another file system, a file changed since, no links here): then it is written.
   */
  const carry = (target: string, from: string, recorded: Fingerprint): boolean => {
    try {
      linkSync(from, target);
    } catch {
      return false;
    }
    const stat = lstatSync(target, { throwIfNoEntry: false });
    if (stat?.isFile() && stat.ino === recorded[3] && stat.size === recorded[0] && stat.mtimeMs === recorded[1]) return true;
    unlinkSync(target);
    return false;
  };

  const write = (file: string, contents: () => string | Uint8Array, from?: { file: string; recorded: Fingerprint }) => {
    const target = path.join(staging, file);
    if (from) {
      try {
        ensureFolder(path.dirname(target));
        if (carry(target, from.file, from.recorded)) return void onDisk.add(file);
      } catch {
        // Written instead, below (which reports a folder that cannot be made).
      }
    }
    // Synchronously, as pages are made. Writes on libuv's threads, which keep file creation off
    // the main thread, made cold builds of 1,000 articles no faster (17.3 s on average over 21
    // builds, against 17.5 s over 17 taken alternately), and left writes in flight when a build
    // failed or was stopped.
    try {
      ensureFolder(path.dirname(target));
      writeFileSync(target, contents());
      onDisk.add(file);
    } catch (error) {
      // Reported by commit; handled now, or Node ends the process on the unhandled rejection
      // (a full disk used to stop the build with a raw stack trace and leave its staging folder).
      const failed = Promise.reject(error);
      failed.catch(() => {});
      writes.push(failed);
    }
  };

  return { write, writes, onDisk };
}

/**
 * Creates the staging folder, with the public files.
 * Returns the function that stops an interrupt from removing it.
 */
function startStaging(staging: string, outDir: string, publicDir: string, publicFiles: string[], interrupts: Interrupts): () => void {
  try {
    mkdirSync(staging, { recursive: true });
  } catch (error) {
    throw catalogueError('OutDirNotWritable', ['stagingNotCreated', staging, (error as Error).message], {}, { cause: error });
  }
  const unregisterStaging = interrupts.on(() => rmSync(staging, { recursive: true, force: true }));
  try {
    if (publicFiles.length > 0) cpSync(publicDir, staging, { recursive: true });
    // The marker earlier versions wrote here, if the public folder has one: it is no public file.
    rmSync(path.join(staging, OUTPUT_MARKER), { force: true });
  } catch (error) {
    // A full disk, or a public entry that cannot be copied (a FIFO, a folder named like the marker).
    rmSync(staging, { recursive: true, force: true });
    unregisterStaging();
    // Named by the output folder, as a failed write is: the staging folder is gone by now.
    throw catalogueError('OutDirNotWritable', ['publicNotCopied', outDir, (error as Error).message, path.basename(staging)], {}, { cause: error });
  }
  return unregisterStaging;
}

/**
 * Waits for the staged writes, then swaps the staging folder in for `outDir` (the old one moved
 * to `previous`). On failure `abort` removes the staging folder. True when there was an old one.
 */
async function swapInStaging(staging: string, outDir: string, previous: string, writes: Promise<void>[], abort: () => Promise<void>): Promise<boolean> {
  try {
    await Promise.all(writes);
  } catch (error) {
    await abort();
    // The staging folder is gone by now: the message says so, and names the output folder.
    throw catalogueError('OutDirNotWritable', ['siteNotWritten', outDir, (error as Error).message, path.basename(staging)], {}, { cause: error });
  }
  try {
    return swapIn(staging, outDir, previous);
  } catch (error) {
    await abort();
    throw swapFailed(outDir, error);
  }
}

/** Records what the output folder now holds, for the next build to compare with. */
async function saveManifest(manifestFile: string, outDir: string, publicDir: string, generated: Map<string, string>, publicFiles: string[]): Promise<void> {
  const publicSources: OutputManifest['publicSources'] = {};
  for (const file of publicFiles) {
    const stat = lstatSync(path.join(publicDir, file));
    publicSources[file] = [stat.size, stat.mtimeMs];
  }
  const stats: OutputManifest['stats'] = {};
  for (const file of [...generated.keys(), ...publicFiles]) {
    stats[file] = fingerprintOf(path.join(outDir, file));
    // The file's folder and each above it, up to the output folder itself ('').
    for (let folder = path.posix.dirname(file); ; folder = path.posix.dirname(folder)) {
      const key = folder === '.' ? '' : folder;
      if (key in stats) break;
      stats[key] = fingerprintOf(path.join(outDir, key));
      if (key === '') break;
    }
  }
  const next: OutputManifest = { version: MANIFEST_VERSION, outDir, hashes: Object.fromEntries(generated), publicSources, stats };
  writeEntrySync(manifestFile, Buffer.from(JSON.stringify(next)));
}

/** Where a file the output folder holds byte for byte (its hash the manifest's) can be carried over from. */
function carrySource(manifest: OutputManifest | undefined, outDir: string, file: string, hash: string | undefined) {
  const recorded = manifest?.stats[file];
  return recorded && hash !== undefined && manifest!.hashes[file] === hash ? { file: path.join(outDir, file), recorded } : undefined;
}

/** A made file where a public file or folder is: one of the two would be lost. */
function refuseOverPublic(file: string, publicFiles: ReadonlySet<string>, publicFolders: ReadonlySet<string>, publicDir: string): void {
  if (publicFiles.has(file)) throw publicFileClash(publicDir, ['samePath', file]);
  if (publicFolders.has(file)) throw publicFileClash(publicDir, ['folderWhereAFileIs', file]);
}

/**
 * A complete site written beside `outDir` and swapped in only when everything is written, so a
 * failure at any point leaves the previous output as it was. Files may be written as they are
 * made; `commit` waits for them, then swaps.
 *
 * With a `manifestFile`, a build whose every file comes out byte for byte as the output folder
 * already holds them writes nothing at all: files are compared as they are made, and writing
 * starts (with what was held so far) at the first one that differs.
 *
 * Once it writes, a file the output folder holds byte for byte is carried over as a hard link
 * (`carries(path, hash)` says whether one would be: a file written with that `hash` then never has
 * its contents asked for).
 */
export async function createStagedOutput(outDir: string, publicDir: string, options: { manifestFile?: string; interrupts?: Interrupts } = {}) {
  const interrupts = options.interrupts ?? noInterrupts;
  interrupts.setOutcome('nothing was swapped in');
  const stamp = `${process.pid}-${Date.now()}`;
  const [staging, previous] = [`${outDir}.tmp-${stamp}`, `${outDir}.old-${stamp}`];
  const { files: publicFiles, folders } = await listEntries(publicDir);
  // The clash checks see the public files; an empty folder is copied with them (never alone), and
  // a file cannot be written over it.
  const publicFolders = new Set(publicFiles.length > 0 ? folders : []);
  const generated = new Map<string, string>();
  const publicSet = new Set(publicFiles);
  const { write: writeToStaging, writes, onDisk } = stagingWriter(staging);
  const { manifestFile } = options;
  const manifest = intactManifest(manifestFile, outDir, publicDir, publicFiles);
  const carriedFrom = (file: string) => carrySource(manifest, outDir, file, generated.get(file));
  /** While set, files are only compared with the manifest and held; nothing is on disk yet. */
  let held: Map<string, OutputFile> | undefined = manifest ? new Map() : undefined;

  let unregisterStaging = () => {};
  /** Leaves comparing for writing: everything held so far goes to the staging folder. */
  const startWriting = () => {
    if (!held) return;
    const pending = held;
    held = undefined;
    unregisterStaging = startStaging(staging, outDir, publicDir, publicFiles, interrupts);
    for (const [file, source] of pending) writeToStaging(file, () => source.contents, carriedFrom(file));
  };

  if (!held) unregisterStaging = startStaging(staging, outDir, publicDir, publicFiles, interrupts);

  const abort = async () => {
    await rm(staging, { recursive: true, force: true });
    unregisterStaging();
  };

  return {
    staging,
    publicFiles,
    write(file: OutputFile): void {
      refuseOverPublic(file.path, publicSet, publicFolders, publicDir);
      const hash = file.hash ?? outputHash(file.contents);
      if (generated.get(file.path) === hash) return; // already written (the site's images are written as they are ready, then with the rest)
      generated.set(file.path, hash);
      if (held) {
        if (manifest!.hashes[file.path] === hash) {
          held.set(file.path, file);
          return;
        }
        startWriting();
      }
      writeToStaging(file.path, () => file.contents, carriedFrom(file.path));
    },
    carries: (file: string, hash: string) => carrySource(manifest, outDir, file, hash) !== undefined,
    /** Where the file written for `file` is on disk now (in the staging folder), if it is: until the commit. */
    pathOf: (file: string) => (onDisk.has(file) ? path.join(staging, file) : undefined),
    /** Swaps the new output in; false when the output folder already held exactly this site. */
    async commit(): Promise<boolean> {
      if (held && generated.size === Object.keys(manifest!.hashes).length) {
        markOutput(outDir);
        return false;
      }
      startWriting();
      const hadPrevious = await swapInStaging(staging, outDir, previous, writes, abort);
      unregisterStaging();
      markOutput(outDir);
      interrupts.setOutcome(`the new site is in place in ${outDir}`);
      // Removed by this process, before it ends: a build leaves no process behind. If it is
      // stopped meanwhile, the next build removes the rest.
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
      // Without a manifest the next build writes everything again: not worth failing this one for.
      if (manifestFile) await saveManifest(manifestFile, outDir, publicDir, generated, publicFiles).catch(() => {});
      return true;
    },
    async abort(): Promise<void> {
      await Promise.allSettled(writes);
      if (!held) await abort();
    },
  };
}

export type StagedOutput = Awaited<ReturnType<typeof createStagedOutput>>;
