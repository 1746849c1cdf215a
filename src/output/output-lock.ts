import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalogueError } from '../errors.ts';
import { noInterrupts, type Interrupts } from '../interrupt.ts';
import { isRunning } from '../processes.ts';
import { KEPT_ENTRIES } from './output-target.ts';

/** Whether a path exists; a link that points nowhere counts. */
export const present = (file: string) => lstatSync(file, { throwIfNoEntry: false }) !== undefined;


/** A lock file being written this very moment is empty for a few microseconds: give it this long. */
const FRESH_LOCK_MS = 10_000;

/** The pid in a lock file; undefined when the file is gone, `0` when it cannot be read (yet). */
function lockHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) return pid;
    return Date.now() - statSync(file).mtimeMs > FRESH_LOCK_MS ? -1 : 0;
  } catch {
    return undefined;
  }
}

export interface LockOptions {
  /** How long to wait for another build into the same folder; then give up. */
  timeoutMs?: number;
  /** Told once, when the build has to wait. */
  onWait?: (holderPid: number) => void;
  /** Where a stop by a signal hears of the lock, to release it. */
  interrupts?: Interrupts;
}

/**
 * Makes this process the only build writing into `outDir`, waiting for another one to finish.
 * The lock is a file beside the folder holding the pid; a lock whose process is gone (killed)
 * is taken over. Returns the release function.
 */
export async function lockOutput(outDir: string, options: LockOptions = {}): Promise<() => void> {
  const file = `${outDir}.lock`;
  try {
    mkdirSync(path.dirname(outDir), { recursive: true });
  } catch (error) {
    throw catalogueError('OutDirNotWritable', ['parentNotCreated', path.dirname(outDir), (error as Error).message], {}, { cause: error });
  }
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let announced = false;
  for (let attempt = 0; attempt < 100_000; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      const release = () => {
        if (lockHolder(file) === process.pid) rmSync(file, { force: true });
      };
      const unregister = (options.interrupts ?? noInterrupts).on(release);
      return () => {
        unregister();
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw catalogueError('OutDirNotWritable', ['lockNotCreated', file, (error as Error).message], {}, { cause: error });
      }
    }
    const holder = lockHolder(file);
    if (holder === undefined) continue; // released meanwhile
    if (holder === -1 || (holder > 0 && !isRunning(holder))) {
      // Left by a build that was killed. Removed only if it still is that lock.
      if (lockHolder(file) === holder) rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw catalogueError('OutDirLocked', ['gaveUp', holder, outDir]);
    }
    if (!announced && holder > 0) options.onWait?.(holder);
    announced = true;
    await sleep(Math.min(50 * 2 ** Math.min(attempt, 4), 500));
  }
  throw catalogueError('OutDirLocked', ['notTaken', file]);
}

/** `dist.tmp-<pid>-<time>` (a staging folder) and `dist.old-<pid>-<time>` (the output before a swap). */
export function leftoverPattern(outDir: string): RegExp {
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
        if (present(path.join(folder, entry)) && !present(path.join(outDir, entry))) renameSync(path.join(folder, entry), path.join(outDir, entry));
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
}
