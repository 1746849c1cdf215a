import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import { cachedBuild, sourceFiles, type BundleResult } from './bundle-cache.ts';
import { catalogueError } from '../errors/errors.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { checkSiteOptions } from '../render/site-options.ts';
import { externalPackagesByPath, fromEsbuildFailure, ssgAlias } from '../base/esbuild-plugins.ts';
import { generatorModulePaths, generatorRoot, relativeToRoot, type Project } from '../project.ts';
import { siteCodeError } from '../errors/site-code-error.ts';
import type { ServerModule } from '../render/bundles.ts';

export type { ServerModule };

export interface ServerBundle {
  module: ServerModule;
  /** Every source file of the site the bundle was made from, relative to the project root. */
  inputs: string[];
  /** Every file the bundle was made from, absolute, packages and the generator's own included. */
  sources: string[];
  /** The compiled code itself, for telling whether it changed. */
  code: Uint8Array;
  /** What each module of the bundle imports (esbuild's metafile), for what a function of it depends on. */
  graph: esbuild.Metafile['inputs'];
  /** The modules with code in the bundle. */
  emitted: ReadonlySet<string>;
}

function serverEntry(project: Project): string {
  const runtime = path.join(generatorRoot, 'src', 'runtime', 'render-page.tsx');
  // The bundle's own copy of the generator recorded where defineSite and defineCollection were called.
  const declarations = path.join(generatorRoot, 'src', 'content', 'declaration-site.ts');
  return [
    `export { default as site } from ${JSON.stringify(project.siteEntry)};`,
    `export { renderPage } from ${JSON.stringify(runtime)};`,
    `export { createElement } from 'react';`,
    `export { declarationSiteOf } from ${JSON.stringify(declarations)};`,
  ].join('\n');
}

export function serverBuildOptions(project: Project): esbuild.BuildOptions {
  return {
    stdin: {
      contents: serverEntry(project),
      resolveDir: project.root,
      loader: 'ts',
      sourcefile: 'ssg-server-entry.ts',
    },
    absWorkingDir: project.root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    write: false,
    metafile: true,
    sourcemap: 'inline',
    logLevel: 'silent',
    nodePaths: generatorModulePaths,
    outfile: path.join(project.cacheDir, 'server.mjs'),
    plugins: [ssgAlias('server'), externalPackagesByPath()],
  };
}

let generation = 0;

const SERVER_MODULE = /^server-(\d+)-\d+\.mjs$/;

/**
 * Removes the server modules of processes that are gone: each is deleted once imported, but a
 * build killed between writing and importing (SIGKILL) left it in the cache for good.
 */
export function removeAbandonedServerModules(cacheDir: string): void {
  removeFilesOfEndedProcesses(cacheDir, SERVER_MODULE);
}

/** Writes compiled server code to the cache under a new name and imports it. */
export async function loadServerModule(
  project: Project,
  result: Pick<esbuild.BuildResult, 'outputFiles' | 'metafile'> | BundleResult,
): Promise<ServerBundle> {
  const output = result.outputFiles?.[0];
  if (!output) throw new Error('esbuild produced no server bundle');
  await mkdir(project.cacheDir, { recursive: true });
  if (generation === 0) removeAbandonedServerModules(project.cacheDir);
  // A fresh name each time: Node caches modules by URL, and dev mode reloads changed code.
  const file = path.join(project.cacheDir, `server-${process.pid}-${++generation}.mjs`);
  await writeFile(file, output.contents);
  const siteEntry = relativeToRoot(project, project.siteEntry);
  let module: ServerModule;
  // Stack traces of page components then point at their .tsx source, not the compiled bundle.
  // Turned on here, not at start: Node reads the map of every module loaded while it is on, and
  // the generator's own (lib/) would cost every build (--verbose turns it on for them too).
  process.setSourceMapsEnabled(true);
  try {
    module = (await import(pathToFileURL(file).href)) as ServerModule;
  } catch (error) {
    // Code at the top of a site module ran and threw: the site's to fix, at its file and line.
    throw siteCodeError('SiteModuleThrew', `Loading the site (${siteEntry})`, error, project.root, { file: siteEntry });
  } finally {
    await rm(file, { force: true });
  }
  const site = module.site as unknown;
  if (!site || typeof site !== 'object' || !Array.isArray((site as { routes?: unknown }).routes)) {
    throw catalogueError('SiteDefinitionInvalid', [], { file: siteEntry });
  }
  checkSiteOptions(site, siteEntry.split(path.sep).join('/'), {
    root: project.root,
    sites: module.declarationSiteOf,
  });
  const inputs = Object.keys(result.metafile?.inputs ?? {})
    .filter((input) => !input.includes('node_modules') && !input.startsWith('<stdin>'))
    .map((input) => relativeToRoot(project, path.resolve(project.root, input)));
  return {
    module,
    inputs,
    sources: sourceFiles(serverBuildOptions(project), result.metafile),
    code: output.contents,
    graph: result.metafile?.inputs ?? {},
    emitted: new Set(
      Object.values(result.metafile?.outputs ?? {}).flatMap((out) =>
        Object.entries(out.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([module]) => module),
      ),
    ),
  };
}

export async function bundleServer(project: Project): Promise<ServerBundle> {
  let result: BundleResult;
  try {
    result = await cachedBuild(project.cacheDir, 'server', serverBuildOptions(project), '');
  } catch (error) {
    throw fromEsbuildFailure(error, 'SiteCompileFailed', project.root);
  }
  return loadServerModule(project, result);
}
