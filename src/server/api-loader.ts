// Finds the API routes a site declares in site/api/ and loads them for `ssg serve`: compiled by
// esbuild (the site is TypeScript; the server runs plain Node) with inline source maps, so an
// exception in a route names its site file and line.
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { catalogueError } from '../errors/errors.ts';
import { externalPackagesByPath, fromEsbuildFailure } from '../base/esbuild-plugins.ts';
import { generatorModulePaths, generatorRoot } from '../project.ts';
import { siteCodeError } from '../errors/site-code-error.ts';
import { apiRoutePath, isApiRoute, type ApiRoute } from './api-route.ts';

export interface LoadedApiRoute {
  /** The URL path, `/api/<name>`. */
  path: string;
  /** The route's file, relative to the site root. */
  file: string;
  route: ApiRoute;
}

const API_DIR = path.join('site', 'api');

/** The route files of site/api/ by URL path, in name order; none when there is no folder. */
function findApiRouteFiles(root: string): Array<{ path: string; file: string }> {
  const dir = path.join(root, API_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ path: apiRoutePath(entry.name), file: path.join(API_DIR, entry.name) }))
    .filter((found): found is { path: string; file: string } => found.path !== undefined)
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** `import ... from 'ssg/server'` in site code means the generator's server surface. */
const ssgServerAlias: esbuild.Plugin = {
  name: 'ssg-server-alias',
  setup(build) {
    const entry = path.join(generatorRoot, 'src', 'server', 'index.ts');
    build.onResolve({ filter: /^ssg\/server$/ }, () => ({ path: entry }));
  },
};

async function compileRoutes(root: string, files: string[], outdir: string): Promise<void> {
  try {
    await esbuild.build({
      entryPoints: files.map((file) => path.join(root, file)),
      absWorkingDir: root,
      outdir,
      outbase: path.join(root, API_DIR),
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
      nodePaths: generatorModulePaths,
      plugins: [ssgServerAlias, externalPackagesByPath()],
    });
  } catch (error) {
    throw fromEsbuildFailure(error, 'ApiRouteCompileFailed', root);
  }
}

async function importRoute(
  root: string,
  outdir: string,
  found: { path: string; file: string },
): Promise<LoadedApiRoute> {
  const compiled = path.join(outdir, `${path.basename(found.file).replace(/\.[^.]+$/, '')}.mjs`);
  let module: { default?: unknown };
  process.setSourceMapsEnabled(true); // stack traces at the route's source (see loadServerModule)
  try {
    module = (await import(pathToFileURL(compiled).href)) as { default?: unknown };
  } catch (error) {
    throw siteCodeError('ApiRouteThrew', `Loading ${found.file}`, error, root, { file: found.file });
  }
  if (!isApiRoute(module.default)) {
    throw catalogueError('ApiRouteInvalid', [found.file], { file: found.file });
  }
  return { ...found, route: module.default };
}

/** Compiles and imports every route of site/api/; the compiled files are removed once loaded. */
export async function loadApiRoutes(root: string): Promise<LoadedApiRoute[]> {
  const found = findApiRouteFiles(root);
  if (found.length === 0) return [];
  // In the system's temporary folder, not the site's: a server may run from a read-only copy.
  // Packages are imported by absolute URL, so the bundle loads from anywhere; a fresh folder
  // each time, as Node caches modules by URL.
  const outdir = await mkdtemp(path.join(tmpdir(), 'ssg-api-'));
  try {
    await compileRoutes(
      root,
      found.map((item) => item.file),
      outdir,
    );
    const routes: LoadedApiRoute[] = [];
    for (const item of found) routes.push(await importRoute(root, outdir, item));
    return routes;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
