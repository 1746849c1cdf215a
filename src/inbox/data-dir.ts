import { closeSync, fsyncSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogueError, type SsgError } from '../errors/errors.ts';

const LOCK_FILE_NAME = 'serve.lock';

export interface DataDirClaim {
  release(): void;
}

function unwritable(dataDir: string, error: unknown): SsgError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return catalogueError('DataDirUnwritable', ['folder', code], { file: dataDir }, { cause: error });
}

/** Creates the folder if needed and writes, syncs and removes a file of our own to prove it is writable. */
function checkWritable(dataDir: string): void {
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dataDir, { recursive: true });
    const fd = openSync(probe, 'wx');
    try {
      writeSync(fd, 'ok');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    unlinkSync(probe);
  } catch (error) {
    throw unwritable(dataDir, error);
  }
}

/** better-sqlite3 installed without its native module (its install script did not run). */
export function sqliteBindingMissing(error: unknown): boolean {
  return /Could not locate the bindings file|better_sqlite3\.node/.test(
    error instanceof Error ? error.message : String(error),
  );
}

/**
 * One server per data folder: an exclusive SQLite lock on `serve.lock`. The lock is the kernel's
 * (fcntl), so it goes with the process, a SIGKILL included: nothing stale to clean up by hand.
 */
export function claimDataDir(dataDir: string): DataDirClaim {
  checkWritable(dataDir);
  const file = path.join(dataDir, LOCK_FILE_NAME);
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
  } catch (error) {
    if (sqliteBindingMissing(error)) throw catalogueError('SqliteMissing', ['noBinding'], {}, { cause: error });
    throw unwritable(dataDir, error);
  }
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw catalogueError('DataDirInUse', [], { file: dataDir }, { cause: error });
    }
    throw unwritable(dataDir, error);
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}
