#!/usr/bin/env node
// The CLI runs from lib/cli.js, the JavaScript the package's build step compiles from src/
// (scripts/build-package.js; `prepare` runs it on install and pack). In a checkout whose sources
// changed since, or when lib/ is missing or damaged, it runs from the TypeScript sources through tsx
// instead, which starts slower, and says so under --verbose; `npm run build:package` compiles again.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { libProblem } from './lib-check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const verbose = process.argv.includes('--verbose');

let main;
const problem = libProblem(root);
if (problem === undefined) {
  if (verbose) process.setSourceMapsEnabled(true);
  ({ main } = await import(pathToFileURL(path.join(root, 'lib', 'cli.js')).href));
} else {
  if (verbose) {
    const installed = root.split(path.sep).includes('node_modules');
    process.stderr.write(
      `ssg: running from the TypeScript sources: ${problem} (${installed ? 'installing ssg again restores it' : 'npm run build:package compiles it'})\n`,
    );
  }
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/cli.ts'));
}
await main(process.argv);
