// Whether lib/ (the compiled package, made by scripts/build-package.js) may be run: every file as
// its list records it (a truncated or altered file is never run), and, in a checkout, compiled from
// the sources as they are now. An installed package (below node_modules/) is not edited, so there
// the sources are not read.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Every file below `dir` by relative path: [size, SHA-256]; source maps by size only. */
export function libFileList(dir) {
  const files = {};
  for (const name of listFiles(dir)) {
    const bytes = readFileSync(path.join(dir, name));
    files[name] = [bytes.length, name.endsWith('.map') ? '' : sha256(bytes)];
  }
  return files;
}

/** A hash of the sources lib/ is compiled from: src/ and the package's manifest, by content. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  const names = listFiles(path.join(root, 'src')).map((name) => path.join('src', name));
  for (const name of [...names, 'package.json']) hash.update(`${name}\0`).update(readFileSync(path.join(root, name))).update('\0');
  return hash.digest('hex').slice(0, 32);
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
    for (const [name, [size, hash]] of Object.entries(files)) {
      const file = path.join(lib, name);
      if (statSync(file).size !== size || (hash && sha256(readFileSync(file)) !== hash)) return `lib/${name} is damaged`;
    }
  } catch {
    return 'a file of lib/ is missing';
  }
  const installed = root.split(path.sep).includes('node_modules');
  if (!installed && record.source !== sourceHash(root)) return 'src/ has changed since lib/ was compiled';
  return undefined;
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}
