// The CLI's compiled JavaScript copy in .cache/cli-<fingerprint>/, made by esbuild whenever a file
// in src/ changed. The copy is built in a folder of its own, with a list of every file's size and
// SHA-256 written last, and renamed into place whole; every start checks the files against that
// list (about a millisecond) so a truncated or altered copy is made again, never run.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFingerprint } from '../src/fingerprint.js';

const LIST = 'files.json';
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The copy's file list, if it is whole and every file matches it; source maps by size only. */
export function copyIntact(dir) {
  try {
    const files = JSON.parse(readFileSync(path.join(dir, LIST), 'utf8'));
    if (!files || typeof files !== 'object' || !Array.isArray(files['cli.js'])) return false;
    for (const [name, [size, hash]] of Object.entries(files)) {
      const file = path.join(dir, name);
      if (name.endsWith('.map') ? statSync(file).size !== size : sha256(readFileSync(file)) !== hash) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function listFiles(dir) {
  const files = {};
  for (const name of readdirSync(dir).sort()) {
    const bytes = readFileSync(path.join(dir, name));
    files[name] = [bytes.length, sha256(bytes)];
  }
  writeFileSync(path.join(dir, LIST), JSON.stringify(files));
}

async function compile(root, outdir) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'src', 'cli', 'cli.ts')],
    outdir,
    bundle: true,
    splitting: true,
    // Packages are compiled in too (fewer files to load at start), but for esbuild and the SQLite
    // binding, which find native files of their own, and tsx.
    external: ['esbuild', 'better-sqlite3', 'tsx'],
    banner: { js: "import { createRequire as __ssgRequire } from 'node:module'; const require = __ssgRequire(import.meta.url);" },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'silent',
  });
  listFiles(outdir);
}

/**
 * The compiled entry, made or remade as needed. Made beside the final folder and renamed into
 * place, so CLIs started at the same moment never load a half-written copy; whichever rename
 * loses uses the winner's. A damaged copy is moved aside first (the move is atomic too).
 * Throws when no intact copy can be had: the caller compiles on the fly instead.
 */
export async function compiledEntry(root) {
  const cacheDir = path.join(root, '.cache');
  const dir = path.join(cacheDir, `cli-${sourceFingerprint(root)}`);
  const entry = path.join(dir, 'cli.js');
  if (copyIntact(dir)) return entry;
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = `${dir}.tmp-${suffix}`;
  try {
    await compile(root, staging);
    // Another CLI may have made a good copy meanwhile: keep it (it may be loading from it).
    if (!copyIntact(dir)) {
      const damaged = `${dir}.old-${suffix}`;
      try {
        renameSync(dir, damaged);
        rmSync(damaged, { recursive: true, force: true });
      } catch {
        // No copy there (the usual case), or another CLI moved it first.
      }
      renameSync(staging, dir);
    }
  } catch {
    // Another CLI's rename won, or the copy could not be made: checked below.
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  removeOldCopies(cacheDir, path.basename(dir));
  if (!copyIntact(dir)) throw new Error(`no intact compiled copy in ${dir}`);
  return entry;
}

const processGone = (pid) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
};

/**
 * Copies for older sources, once nothing can still be loading from them, and the half-made or
 * set-aside folders of CLIs that died.
 */
function removeOldCopies(cacheDir, current) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith('cli-') || name === current) continue;
    const dir = path.join(cacheDir, name);
    const writer = /\.(?:tmp|old)-(\d+)-[0-9a-f]+$/.exec(name);
    try {
      if ((writer && processGone(Number(writer[1]))) || statSync(dir).mtimeMs < hourAgo) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another CLI removed it first.
    }
  }
}
