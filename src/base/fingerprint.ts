// The generator's sources as one short hash: Node's version, every file in src/ by path, size and
// modification time, and npm's record of the installed packages (which the compiled CLI bundles).
// Cheap (a stat a file) and changed by any edit or install. The record of an unchanged build keeps
// it, so a build after any change to the generator builds in full.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A short hash of Node's version, every file in `<root>/src` (path, size, modification time) and npm's install record. */
export function sourceFingerprint(root: string): string {
  const hash = createHash('sha1').update(process.version);
  const files = listFiles(path.join(root, 'src')).sort();
  for (const file of files) {
    const stat = statSync(file);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  try {
    const lock = statSync(path.join(root, 'node_modules', '.package-lock.json'));
    hash.update(`packages\0${lock.size}\0${lock.mtimeMs}`);
  } catch {
    // No npm install record: the sources alone.
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
