// The staging folder a build writes into beside the output folder, and its swap into place.
import { cpSync, linkSync, lstatSync, mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogueError } from '../errors/errors.ts';
import type { Interrupts } from '../base/interrupt.ts';
import { present } from './output-lock.ts';
import type { Fingerprint } from './output-manifest.ts';
import { KEPT_ENTRIES, OUTPUT_MARKER, mountPointFailure } from './output-target.ts';

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

const swapFailed = (outDir: string, error: unknown) =>
  mountPointFailure(error, outDir) ??
  catalogueError('OutputSwapFailed', [outDir, (error as Error).message], {}, { cause: error });

/** Writes files into the staging folder as they are made; a failure waits in `writes` for commit to report it. */
export function stagingWriter(staging: string) {
  // Each folder made after its parent, never the staging folder itself (startStaging made it): once
  // it is removed (an interrupt's clean-up), later writes fail rather than commit a partial site.
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
    if (stat?.isFile() && stat.ino === recorded[3] && stat.size === recorded[0] && stat.mtimeMs === recorded[1])
      return true;
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
    // Synchronously, as pages are made: writes on libuv's threads made builds no faster and left
    // writes in flight when a build failed or was stopped.
    try {
      ensureFolder(path.dirname(target));
      writeFileSync(target, contents());
      onDisk.add(file);
    } catch (error) {
      // Reported by commit; handled now, or Node ends the process on the unhandled rejection and
      // leaves the staging folder behind.
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
export function startStaging(
  staging: string,
  outDir: string,
  publicDir: string,
  publicFiles: string[],
  interrupts: Interrupts,
): () => void {
  try {
    mkdirSync(staging, { recursive: true });
  } catch (error) {
    throw catalogueError(
      'OutDirNotWritable',
      ['stagingNotCreated', staging, (error as Error).message],
      {},
      { cause: error },
    );
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
    throw catalogueError(
      'OutDirNotWritable',
      ['publicNotCopied', outDir, (error as Error).message, path.basename(staging)],
      {},
      { cause: error },
    );
  }
  return unregisterStaging;
}

/**
 * Waits for the staged writes, then swaps the staging folder in for `outDir` (the old one moved
 * to `previous`). On failure `abort` removes the staging folder. True when there was an old one.
 */
export async function swapInStaging(
  staging: string,
  outDir: string,
  previous: string,
  writes: Promise<void>[],
  abort: () => Promise<void>,
): Promise<boolean> {
  try {
    await Promise.all(writes);
  } catch (error) {
    await abort();
    // The staging folder is gone by now: the message says so, and names the output folder.
    throw catalogueError(
      'OutDirNotWritable',
      ['siteNotWritten', outDir, (error as Error).message, path.basename(staging)],
      {},
      { cause: error },
    );
  }
  try {
    return swapIn(staging, outDir, previous);
  } catch (error) {
    await abort();
    throw swapFailed(outDir, error);
  }
}
