#!/usr/bin/env node
// The CLI is TypeScript. It runs from a JavaScript copy in .cache/cli-<fingerprint>/, which esbuild
// makes in a fraction of a second whenever a file in src/ changed: loading compiled code starts
// about 0.2 s faster than compiling on the fly at every start. Should that copy not be possible
// (a read-only install, say), tsx compiles the sources on the fly as before.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceFingerprint } from './fingerprint.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache');

async function compiledEntry() {
  const dir = path.join(cacheDir, `cli-${sourceFingerprint(root)}`);
  const entry = path.join(dir, 'cli.js');
  if (existsSync(entry)) return entry;
  const esbuild = await import('esbuild');
  // Compiled beside the final folder and renamed into place, so that CLIs started at the same
  // moment never load a half-written copy; whichever rename loses just uses the winner's.
  const staging = `${dir}.tmp-${process.pid}`;
  await esbuild.build({
    entryPoints: [path.join(root, 'src', 'cli.ts')],
    outdir: staging,
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
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  removeOldCopies(path.basename(dir));
  return entry;
}

/** Copies for older sources, once nothing can still be loading from them. */
function removeOldCopies(current) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith('cli-') || name === current) continue;
    const dir = path.join(cacheDir, name);
    try {
      if (statSync(dir).mtimeMs < hourAgo) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another CLI removed it first.
    }
  }
}

let main;
try {
  const entry = await compiledEntry();
  if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  ({ main } = await import(pathToFileURL(entry).href));
} catch {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli.ts'));
}
await main(process.argv);
