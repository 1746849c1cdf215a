// The package's build step (`npm run build:package`, run by `prepare`: on `npm ci`, `npm install`
// in a checkout and `npm pack`): compiles the TypeScript in src/ into lib/, which is what the
// installed package runs and what its `exports` name.
//   lib/cli.js       the CLI, with the packages it uses compiled in (fewer files to load at start)
//   lib/markdown-helper.js  the script of the CLI's Markdown helper processes, sharing its chunks
//   lib/index.js     `ssg`: what a site's pages import
//   lib/server.js    `ssg/server`: what a site's API routes and host adapters import
//   lib/client.js    `ssg/client`: the browser runtime
//   lib/types/       their type declarations
//   lib/files.json   every file's size, SHA-256 and time, and a hash and the times of src/ as compiled: bin/ssg.js runs
//                    lib/ only when it is whole and, in a checkout, made from the sources as they are
// Made in a folder of its own and renamed into place whole; a failure leaves the previous lib/.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { libFileList, sourceHash, sourceStats } from '../bin/lib-check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.join(root, 'lib');
const staging = `${lib}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
const src = (...parts) => path.join(root, 'src', ...parts);

const common = {
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: 'linked',
  logLevel: 'warning',
};

try {
  // Their times before their contents: a source edited meanwhile has a newer time, so it is hashed again at start.
  const compiledStats = sourceStats(root);
  const compiledFrom = sourceHash(root);
  await esbuild.build({
    ...common,
    entryPoints: { cli: src('cli', 'cli.ts'), 'markdown-helper': src('pool', 'markdown-worker.ts') },
    // Packages are compiled in, but for esbuild and the SQLite binding, which find native files of
    // their own, tsx (which the API loader registers), React and MDX (an MDX article's module
    // renders with the very React it imports), and Pagefind: the optional features' packages are
    // imported when a site turns the feature on, so a site without it runs with them removed.
    external: [
      'esbuild',
      'better-sqlite3',
      'tsx',
      'react',
      'react/*',
      'react-dom',
      'react-dom/*',
      '@mdx-js/mdx',
      'pagefind',
    ],
    banner: {
      js: "import { createRequire as __ssgRequire } from 'node:module'; const require = __ssgRequire(import.meta.url);",
    },
    entryNames: '[name]',
    chunkNames: 'cli-chunks/[name]-[hash]',
  });
  // What sites and host adapters import: their packages stay imports, resolved where installed.
  await esbuild.build({
    ...common,
    entryPoints: { index: src('index.ts'), server: src('server', 'index.ts'), client: src('index.client.ts') },
    packages: 'external',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
  });
  // The declarations need TypeScript, a dev dependency: an install without them (npm ci
  // --omit=dev, to run `ssg serve`) gets lib/ without lib/types, which the CLI does not read.
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (existsSync(tsc)) {
    execFileSync(
      process.execPath,
      [tsc, '-p', path.join(root, 'tsconfig.types.json'), '--outDir', path.join(staging, 'types')],
      { cwd: root, stdio: 'inherit' },
    );
  } else {
    console.warn(
      'build:package: TypeScript is not installed (an install without dev dependencies): lib/types/ is not made; the CLI runs without it.',
    );
  }
  writeFileSync(
    path.join(staging, 'files.json'),
    JSON.stringify({ source: compiledFrom, sourceStats: compiledStats, files: libFileList(staging) }),
  );
  const old = `${lib}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
  if (existsSync(lib)) renameSync(lib, old);
  renameSync(staging, lib);
  rmSync(old, { recursive: true, force: true });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  console.error(
    `build:package: lib/ was not made (the previous one, if any, is kept): ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}
