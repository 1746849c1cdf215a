// How the bundles are made: one-shot bundles for `build`, esbuild contexts kept alive for dev.
import path from 'node:path';
import { existsSync } from 'node:fs';
import * as esbuild from 'esbuild';
import {
  bundleClient,
  collectClientBundle,
  findIslands,
  scriptBuildOptions,
  styleBuildOptions,
  type IslandSource,
} from '../bundle/bundle-client.ts';
import { bundleServer, loadServerModule, serverBuildOptions } from '../bundle/bundle-server.ts';
import { fromEsbuildFailure } from '../base/esbuild-plugins.ts';
import { ASSETS_DIR, type Project } from '../project.ts';
import type { Bundler } from './pipeline-types.ts';
import { inOrder } from '../base/in-order.ts';

/** The one-shot bundles of `build`, each taken from its cache while its sources are as they were. */
export function oneShotBundler(project: Project, outDir: string): Bundler {
  return {
    server: () => bundleServer(project),
    client: () => bundleClient(project, path.join(outDir, ASSETS_DIR)),
    dispose: async () => {},
  };
}

/** Dev mode's bundles: esbuild contexts kept alive and rebuilt on a change. */
export async function contextBundler(project: Project, outDir: string): Promise<Bundler> {
  const assetsDir = path.join(outDir, ASSETS_DIR);
  const failEsbuild = (error: unknown, code: 'SiteCompileFailed' | 'ClientCompileFailed') => {
    throw fromEsbuildFailure(error, code, project.root);
  };
  const serverContext = await esbuild.context(serverBuildOptions(project));
  const styleContext = existsSync(project.stylesEntry)
    ? await esbuild.context(styleBuildOptions(project, assetsDir))
    : undefined;
  let scriptContext: esbuild.BuildContext | undefined;
  let islands: IslandSource[] = [];
  let scriptIslands: string | undefined;
  let scriptResult: esbuild.BuildResult | undefined;
  let styleResult: esbuild.BuildResult | undefined;
  const scripts = async () => {
    islands = await findIslands(project);
    const key = islands.map((island) => island.file).join('\n');
    if (key !== scriptIslands) {
      await scriptContext?.dispose();
      scriptContext =
        islands.length > 0 ? await esbuild.context(scriptBuildOptions(project, islands, assetsDir)) : undefined;
      scriptIslands = key;
    }
    scriptResult = await scriptContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  };
  const styles = async () => {
    styleResult = await styleContext?.rebuild().catch((error) => failEsbuild(error, 'ClientCompileFailed'));
  };
  return {
    async server() {
      const result = await serverContext.rebuild().catch((error) => failEsbuild(error, 'SiteCompileFailed'));
      return loadServerModule(project, result);
    },
    async client(changed) {
      await inOrder([changed.code ? scripts() : Promise.resolve(), changed.style ? styles() : Promise.resolve()]);
      return collectClientBundle(project, islands, assetsDir, scriptResult, styleResult);
    },
    async dispose() {
      await Promise.all([serverContext.dispose(), styleContext?.dispose(), scriptContext?.dispose()]);
    },
  };
}
