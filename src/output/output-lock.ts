import fs, {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { catalogueError } from '../errors/errors.ts';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { isRunning } from '../base/processes.ts';
import { KEPT_ENTRIES } from './output-target.ts';

/** Whether a path exists; a link that points nowhere counts. */
export const present = (file: string) => lstatSync(file, { throwIfNoEntry: false }) !== undefined;

/** A lock not refreshed for this long is another machine's or a reused pid's, and is taken over. */
const STALE_MS = 10_000;

/**
 * Removes a lock: its owner's pid file, then the folder, which fails if anything else is in it (a
 * `dist.lock` folder someone keeps files in is never ssg's to delete); a lock file of an older ssg.
 */
function removeLock(lockPath: string): void {
  if (lstatSync(lockPath, { throwIfNoEntry: false })?.isDirectory() !== true) {
    rmSync(lockPath, { force: true });
    return;
  }
  rmSync(path.join(lockPath, 'pid'), { force: true });
  fs.rmdirSync(lockPath);
}

/**
 * proper-lockfile removes a lock with `rmdir`; ours holds its owner's pid file, written as soon as
 * the folder is made: a stop while the lock is being taken then knows it is this process's.
 */
const lockFs = {
  ...fs,
  mkdir: (dir: string, done: (error: NodeJS.ErrnoException | null) => void) =>
    fs.mkdir(dir, (error) => {
      if (!error) signLock(dir);
      done(error);
    }),
  rmdir: (dir: string, done: (error: Error | null) => void) => {
    try {
      removeLock(dir);
      done(null);
    } catch (error) {
      done(error as Error);
    }
  },
  rmdirSync: removeLock,
};

/** The pid holding a lock: in its `pid` file, or the lock itself when an older ssg wrote it as a file. */
function lockHolder(lockPath: string): number | undefined {
  for (const file of [path.join(lockPath, 'pid'), lockPath]) {
    try {
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0) return pid;
    } catch {
      // Not this shape of lock, or gone meanwhile.
    }
  }
  return undefined;
}

/** Records this process in the lock, keeping its mtime: proper-lockfile takes a changed mtime for a lock taken over. */
function signLock(lockPath: string): void {
  const { mtime } = statSync(lockPath);
  writeFileSync(path.join(lockPath, 'pid'), `${process.pid}\n`);
  utimesSync(lockPath, mtime, mtime);
}

export interface LockOptions {
  /** How long to wait for another build into the same folder; then give up. */
  timeoutMs?: number;
  /** Told once, when the build has to wait. */
  onWait?: (holderPid: number) => void;
  /** Where a stop by a signal hears of the lock, to release it. */
  interrupts?: Interrupts;
}

/** proper-lockfile's lock on `outDir` (`<outDir>.lock`), or undefined while another process holds it. */
async function tryLock(outDir: string, lockPath: string): Promise<(() => void) | undefined> {
  const where = { lockfilePath: lockPath, realpath: false, fs: lockFs };
  try {
    // Taken over after a stall past STALE_MS: the swap is one rename, so either build's site lands whole.
    await lockfile.lock(outDir, { ...where, stale: STALE_MS, onCompromised: () => {} });
    return () => {
      try {
        lockfile.unlockSync(outDir, where);
      } catch {
        // Released already (by a stop), or taken over.
      }
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw catalogueError(
      'OutDirNotWritable',
      ['lockNotCreated', lockPath, (error as Error).message],
      {},
      { cause: error },
    );
  }
}

/**
 * Makes this process the only build writing into `outDir`, waiting for another one to finish.
 * The lock is proper-lockfile's, beside the folder; a lock whose process is gone (killed) is taken
 * over at once rather than after the stale time. Returns the release function.
 */
export async function lockOutput(outDir: string, options: LockOptions = {}): Promise<() => void> {
  const lockPath = `${outDir}.lock`;
  try {
    mkdirSync(path.dirname(outDir), { recursive: true });
  } catch (error) {
    throw catalogueError(
      'OutDirNotWritable',
      ['parentNotCreated', path.dirname(outDir), (error as Error).message],
      {},
      { cause: error },
    );
  }
  const interrupts = options.interrupts ?? noInterrupts;
  // A stop while the lock is being taken: the lock is removed if it is this process's already.
  const whileTaking = interrupts.on(() => {
    if (lockHolder(lockPath) === process.pid) removeLock(lockPath);
  });
  try {
    return await takeLock(outDir, lockPath, options, interrupts);
  } finally {
    whileTaking();
  }
}

async function takeLock(
  outDir: string,
  lockPath: string,
  options: LockOptions,
  interrupts: Interrupts,
): Promise<() => void> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let announced = false;
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const unlock = await tryLock(outDir, lockPath);
    if (unlock) {
      const unregister = interrupts.on(unlock);
      return () => {
        unregister();
        unlock();
      };
    }
    const holder = lockHolder(lockPath);
    if (holder !== undefined && !isRunning(holder)) {
      // Left by a build that was killed. Removed only if it still is that lock.
      if (lockHolder(lockPath) === holder) {
        try {
          removeLock(lockPath);
        } catch (error) {
          throw catalogueError(
            'OutDirNotWritable',
            ['lockNotCreated', lockPath, (error as Error).message],
            {},
            { cause: error },
          );
        }
      }
      continue;
    }
    if (Date.now() > deadline) throw catalogueError('OutDirLocked', ['gaveUp', holder ?? 0, outDir]);
    if (!announced && holder !== undefined) options.onWait?.(holder);
    announced = true;
    await sleep(Math.min(50 * 2 ** Math.min(attempt, 4), 500));
  }
  throw catalogueError('OutDirLocked', ['notTaken', lockPath]);
}

/** `dist.tmp-<pid>-<time>` (a staging folder) and `dist.old-<pid>-<time>` (the output before a swap). */
function leftoverPattern(outDir: string): RegExp {
  const base = path.basename(outDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${base}\\.(tmp|old)-(\\d+)-(\\d+)$`);
}

/**
 * Removes what builds into `outDir` killed mid-way left beside it. Call with the lock held. An
 * old copy stands in for a missing output folder (killed between the two renames of a swap);
 * entries a deploy checkout keeps are moved back from it before it is removed.
 */
export function cleanLeftovers(outDir: string): void {
  const parent = path.dirname(outDir);
  const pattern = leftoverPattern(outDir);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const leftovers = names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter(({ match }) => match && Number(match[2]) !== process.pid && !isRunning(Number(match[2])))
    .sort((a, b) => Number(b.match![3]) - Number(a.match![3]));
  for (const { name, match } of leftovers) {
    const folder = path.join(parent, name);
    if (match![1] === 'old') {
      if (!present(outDir)) {
        renameSync(folder, outDir);
        continue;
      }
      for (const entry of KEPT_ENTRIES) {
        if (present(path.join(folder, entry)) && !present(path.join(outDir, entry)))
          renameSync(path.join(folder, entry), path.join(outDir, entry));
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
}
