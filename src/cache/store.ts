import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError } from '../errors/errors.ts';
import { isRunning } from '../base/processes.ts';

/**
 * The one cache store. Each entry is a file `ssg-cache/1 <payload length> <sha256 hex>\n<payload>`,
 * written under a temporary name and renamed, so a reader sees the old entry or the new, never
 * half. Entries are checked on read (damage reads as absent, the caller makes it again), which is
 * why writes are not fsynced.
 */
const MAGIC = 'ssg-cache/1';
const HEADER = /^ssg-cache\/1 (\d{1,12}) ([0-9a-f]{64})\n/;
/** The longest header: magic, 12 digits, 64 hex digits, separators. */
const HEADER_MAX = MAGIC.length + 1 + 12 + 1 + 64 + 1;

const sha256 = (payload: Uint8Array) => createHash('sha256').update(payload).digest('hex');

/** The header that precedes a payload in its entry file. */
export function entryHeader(payload: Uint8Array): Buffer {
  return Buffer.from(`${MAGIC} ${payload.length} ${sha256(payload)}\n`);
}

/** The payload of an entry file's bytes, or undefined when they are not a whole, intact entry. */
export function openEntry(bytes: Uint8Array): Buffer | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const match = HEADER.exec(buffer.subarray(0, HEADER_MAX).toString('latin1'));
  if (!match) return undefined;
  const payload = buffer.subarray(match[0].length);
  if (payload.length !== Number(match[1]) || sha256(payload) !== match[2]) return undefined;
  return payload;
}

/**
 * Makes the cache folder. Entries that cannot be written are only not kept, but a file standing
 * where the folder (or one above it) should be stops the build helpers that run from it: say so.
 */
export function openCacheFolder(dir: string, shownAs: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT after a recursive mkdir: a symbolic link on the way points nowhere.
    const problem =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? (['fileInTheWay'] as const)
        : code === 'ENOENT' || code === 'ELOOP'
          ? (['linkToNothing'] as const)
          : (['notCreated', (error as Error).message] as const);
    throw catalogueError('CacheUnusable', problem, { file: shownAs }, { cause: error });
  }
}

/** An entry's payload; undefined when it is missing or damaged (never an error). */
export function readEntrySync(file: string): Buffer | undefined {
  try {
    return openEntry(readFileSync(file));
  } catch {
    return undefined;
  }
}

export async function readEntry(file: string): Promise<Buffer | undefined> {
  try {
    return openEntry(await readFile(file));
  } catch {
    return undefined;
  }
}

/** `<file>.tmp-<pid>-<random>`: unique per writer, and tells a later run whose it was. */
function temporaryName(file: string): string {
  return `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Writes an entry atomically. An empty folder standing where the entry goes (left by hand or by
 * an older layout) is removed; anything else in the way makes the write fail, and the caller
 * carries on without keeping the entry.
 */
export function writeEntrySync(file: string, payload: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, entryHeader(payload));
      writeAll(fd, payload);
    } finally {
      closeSync(fd);
    }
    clearEmptyFolder(file);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Folders made by writeEntryAsync in this process: a hundred entries into one folder make it once, not a hundred times. */
const madeFolders = new Map<string, Promise<unknown>>();

/** writeEntrySync on libuv's threads: the same atomic write, for many entries written while other work goes on. */
export async function writeEntryAsync(file: string, payload: Uint8Array): Promise<void> {
  await writeAtomically(file, Buffer.concat([entryHeader(payload), payload]));
}

/** `bytes` written under a temporary name beside `file`, then renamed into place, on libuv's threads. */
async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  const folder = path.dirname(file);
  let made = madeFolders.get(folder);
  if (!made) madeFolders.set(folder, (made = mkdir(folder, { recursive: true })));
  try {
    await made;
  } catch (error) {
    madeFolders.delete(folder); // tried again by the next write
    throw error;
  }
  const temporary = temporaryName(file);
  try {
    await writeFile(temporary, bytes).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      // The folder went since this process made it (.cache deleted while dev runs): made again.
      madeFolders.delete(folder);
      await mkdir(folder, { recursive: true });
      await writeFile(temporary, bytes);
    });
    clearEmptyFolder(file);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** writeEntryAsync for an entry the build may do without: settles whether it was written, never rejects (a build that fails before it looks leaves no unhandled rejection). */
export function keepEntry(file: string, payload: Uint8Array): Promise<boolean> {
  return writeEntryAsync(file, payload).then(
    () => true,
    () => false,
  );
}

/**
 * A content-addressed entry (`<sha1 hex>.html`): the bytes alone, checked by the reader against
 * its name. Kept as a hard link to a file with the same bytes when there is one, which writes
 * nothing. An intact entry is left alone: replacing it would move the change time of the output
 * file it may share, and the next build would see the output as touched. Never rejects.
 */
export function keepContentEntry(
  file: string,
  bytes: () => Uint8Array,
  intact: (bytes: Uint8Array) => boolean,
  sameBytesAt?: string,
): Promise<boolean> {
  const there = statSync(file, { throwIfNoEntry: false });
  if (there?.isFile()) {
    if (sameBytesAt && statSync(sameBytesAt, { throwIfNoEntry: false })?.ino === there.ino)
      return Promise.resolve(true);
    const current = readContentEntry(file);
    if (current && intact(current)) return Promise.resolve(true);
  }
  if (sameBytesAt) {
    const temporary = temporaryName(file);
    try {
      try {
        linkSync(sameBytesAt, temporary);
      } catch (error) {
        // The folder's first entry: made, and linked again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync(sameBytesAt)) throw error;
        mkdirSync(path.dirname(file), { recursive: true });
        linkSync(sameBytesAt, temporary);
      }
      try {
        clearEmptyFolder(file);
        renameSync(temporary, file);
        return Promise.resolve(true);
      } finally {
        // Gone once renamed; left only when the entry was already this very file (another build made it meanwhile).
        rmSync(temporary, { force: true });
      }
    } catch {
      // Another file system, no links here: written below.
    }
  }
  return writeAtomically(file, bytes()).then(
    () => true,
    () => false,
  );
}

/** The bytes of an entry named by their hash (see keepContentEntry), unchecked; undefined when unreadable. */
export function readContentEntry(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Removes an entry found damaged; a folder standing there is left (not the build's to empty: the next write clears it if empty). */
export function discardEntry(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // A folder: see above.
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  // Bounded: each pass writes at least one byte or throws.
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

function clearEmptyFolder(file: string): void {
  try {
    if (statSync(file).isDirectory()) rmdirSync(file);
  } catch {
    // Nothing there, or a folder with something in it: the rename reports the latter.
  }
}

const TEMPORARY = /\.tmp-(\d+)-[0-9a-f]+$/;

/**
 * Removes the files (or folders) in `dir` whose name `pattern` matches with the id of a process that has ended
 * (its group 1): what a process killed before it could clean up left behind. With `maxAgeMs`,
 * also those older than that, should the number have gone to another process since.
 */
export function removeFilesOfEndedProcesses(
  dir: string,
  pattern: RegExp,
  options: { maxAgeMs?: number; now?: number } = {},
): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const oldest = (options.now ?? Date.now()) - (options.maxAgeMs ?? Infinity);
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    const file = path.join(dir, name);
    try {
      if ((pid !== process.pid && !isRunning(pid)) || statSync(file).mtimeMs < oldest) {
        rmSync(file, { force: true, recursive: true });
        removed++;
      }
    } catch {
      // Renamed or removed by its writer meanwhile.
    }
  }
  return removed;
}

/**
 * Removes the temporary files a writer in `dir` left behind when its process died before the
 * rename (or a day ago, should its number have gone to another process since). Only names this
 * store makes are touched.
 */
export const removeAbandonedTemporaries = (dir: string, now = Date.now()): number =>
  removeFilesOfEndedProcesses(dir, TEMPORARY, { maxAgeMs: 86_400_000, now });

/**
 * Removes the entries in `dir` that this build did not use: those named by `isEntry`, not in
 * `used`, and older than `since` (a build running beside this one may have just made them).
 */
export function pruneEntries(
  dir: string,
  options: { used: ReadonlySet<string>; isEntry: (name: string) => boolean; since: number },
): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!options.isEntry(name) || options.used.has(name)) continue;
    const file = path.join(dir, name);
    try {
      const stat = statSync(file);
      if (stat.isFile() && stat.mtimeMs < options.since) {
        rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // Gone already.
    }
  }
  return removed;
}
