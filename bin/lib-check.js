// Whether lib/ (the compiled package, made by scripts/build-package.js) may be run: every file as
// its list records it (a truncated or altered file is never run), and, in a checkout, compiled from
// the sources as they are now. An installed package (below node_modules/) is not edited, so there
// the sources are not read. A file whose size and modification time are as recorded is trusted
// unread; any other is read and hashed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Every file below `dir` by relative path: [size, SHA-256, modification time]; source maps by size
 * only. A file whose size and time are as listed is trusted without reading it (as the build's
 * unchanged check trusts its inputs); any other is hashed.
 */
export function libFileList(dir) {
  const files = {};
  for (const name of listFiles(dir)) {
    const file = path.join(dir, name);
    const bytes = readFileSync(file);
    files[name] = [bytes.length, name.endsWith('.map') ? '' : sha256(bytes), statSync(file).mtimeMs];
  }
  return files;
}

/** The files lib/ is compiled from: src/ and the package's manifest. */
const sourceNames = (root) => [
  ...listFiles(path.join(root, 'src')).map((name) => path.join('src', name)),
  'package.json',
];

/** A hash of the sources lib/ is compiled from, by content. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  for (const name of sourceNames(root))
    hash
      .update(`${name}\0`)
      .update(readFileSync(path.join(root, name)))
      .update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** The size and modification time of each source, by name: when all are as recorded, the sources are not read. */
export function sourceStats(root) {
  return Object.fromEntries(
    sourceNames(root).map((name) => {
      const stat = statSync(path.join(root, name));
      return [name, [stat.size, stat.mtimeMs]];
    }),
  );
}

function sourcesAsRecorded(root, recorded) {
  if (!recorded || typeof recorded !== 'object') return false;
  const names = sourceNames(root);
  if (names.length !== Object.keys(recorded).length) return false;
  return names.every((name) => {
    const stat = statSync(path.join(root, name), { throwIfNoEntry: false });
    return Array.isArray(recorded[name]) && stat?.size === recorded[name][0] && stat.mtimeMs === recorded[name][1];
  });
}

/** Why lib/ may not be run, or undefined when it may. */
export function libProblem(root) {
  const lib = path.join(root, 'lib');
  let record;
  try {
    record = JSON.parse(readFileSync(path.join(lib, 'files.json'), 'utf8'));
  } catch {
    return 'lib/ has not been compiled';
  }
  try {
    const files = record.files;
    if (!files || typeof files !== 'object' || !Array.isArray(files['cli.js'])) return 'lib/files.json is damaged';
    for (const [name, [size, hash, mtimeMs]] of Object.entries(files)) {
      const file = path.join(lib, name);
      const stat = statSync(file);
      if (stat.size !== size || (hash && stat.mtimeMs !== mtimeMs && sha256(readFileSync(file)) !== hash))
        return `lib/${name} is damaged`;
    }
  } catch {
    return 'a file of lib/ is missing';
  }
  const installed = root.split(path.sep).includes('node_modules');
  if (!installed && !sourcesAsRecorded(root, record.sourceStats) && record.source !== sourceHash(root))
    return 'src/ has changed since lib/ was compiled';
  return undefined;
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}
