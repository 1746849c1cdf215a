import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { libProblem } from '../../bin/lib-check.js';
import type { TestProject } from 'vitest/node';
import { buildSharedRealSite } from '../helpers/real-site.ts';
import { cliPath, repoRoot, runCli } from '../helpers/project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A built copy of the real site, made once per run: read it, serve it, copy it; never change it. */
    realSite: string;
  }
}

/**
 * Once per run, before any test file: lib/, the compiled package, is made again if src/ changed
 * since `npm ci` made it (so every CLI the tests start runs the sources as they are, compiled), and the real site is built once in a temporary
 * folder that test files read and serve, or copy with its caches (`tests/helpers/site.ts`).
 * Building it in every file that needs it cost a cold build each, many at once on two cores.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (libProblem(repoRoot) !== undefined)
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-package.js')], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
  const version = await runCli(['--version', '--verbose'], repoRoot);
  if (version.stderr.includes('running from the TypeScript sources'))
    throw new Error(`lib/ is not usable after scripts/build-package.js:\n${version.stderr}`);
  if (version.code !== 0) throw new Error(`${cliPath} --version failed:\n${version.stderr}`);
  const dir = await buildSharedRealSite();
  project.provide('realSite', dir);
  return () => rm(dir, { recursive: true, force: true });
}
