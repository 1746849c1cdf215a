// `npm run package`: the ssg package as it is published, packed into a tarball. This repository is
// both the generator and a site built with it (site/, content/), so its package.json lists what
// only that site and the tests need besides what ssg needs. The packed manifest leaves out the
// dependencies named in `siteDependencies` (the site's own: the editor's packages, the share
// cards' renderer), the dev dependencies, the scripts and the repository's own settings: a site
// that installs ssg gets only the generator's packages, and installs a feature's heavy ones itself.
//
//   node scripts/pack.js [--pack-destination <folder>] [--json]
//
// lib/ is packed as it is: `npm run build:package` makes it (the test suite keeps it current).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { libProblem } from '../bin/lib-check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The manifest a site installs: the repository's, less what only the repository uses. */
export function publishedManifest(manifest) {
  const {
    private: _private,
    scripts: _scripts,
    devDependencies: _dev,
    overrides: _overrides,
    allowScripts: _allowScripts,
    siteDependencies = [],
    ...published
  } = manifest;
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).filter(([name]) => !siteDependencies.includes(name)),
  );
  return { ...published, dependencies };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--pack-destination');
  if (at >= 0 && !args[at + 1]) {
    console.error('package: --pack-destination needs a folder.');
    process.exit(2);
  }
  const destination = path.resolve(at >= 0 ? args[at + 1] : '.');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const problem = libProblem(root);
  if (problem) {
    console.error(`package: lib/ cannot be packed (${problem}): run \`npm run build:package\` first.`);
    process.exit(1);
  }
  const stage = mkdtempSync(path.join(tmpdir(), 'ssg-pack-'));
  try {
    for (const entry of [...manifest.files, 'README.md', 'LICENSE']) {
      const from = path.join(root, entry);
      if (existsSync(from)) cpSync(from, path.join(stage, entry), { recursive: true });
    }
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
    const output = execFileSync(
      'npm',
      [
        'pack',
        stage,
        '--ignore-scripts',
        '--pack-destination',
        destination,
        ...(args.includes('--json') ? ['--json'] : []),
      ],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    process.stdout.write(output);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
