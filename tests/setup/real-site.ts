import { rm } from 'node:fs/promises';
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
 * Once per run, before any test file: the CLI's compiled copy is made (so test files starting
 * CLIs at once do not all compile it at once), and the real site is built once in a temporary
 * folder that test files read and serve, or copy with its caches (`tests/helpers/site.ts`).
 * Building it in every file that needs it cost a cold build each, many at once on two cores.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const version = await runCli(['--version'], repoRoot);
  if (version.code !== 0) throw new Error(`${cliPath} --version failed:\n${version.stderr}`);
  const dir = await buildSharedRealSite();
  project.provide('realSite', dir);
  return () => rm(dir, { recursive: true, force: true });
}
