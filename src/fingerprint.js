// The generator's sources as one short hash: Node's version, every file in src/ and patches/ (the
// fixes patch-package applies to installed packages) by path, size and modification time, and
// npm's record of the installed packages (which the compiled CLI bundles).
// Cheap (a stat a file) and changed by any edit or install. The CLI names its compiled copy by
// it; the page cache keeps pages only while it is unchanged.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function sourceFingerprint(root) {
  const hash = createHash('sha1').update(process.version);
  const files = ['src', 'patches']
    .flatMap((dir) => listFiles(path.join(root, dir)))
    .sort();
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

function listFiles(dir) {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}
