import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type * as esbuild from 'esbuild';
import { BOOTSTRAP_HASH, cspHash } from '../runtime/bootstrap.ts';
import { BUILT_IN_ISLANDS } from '../runtime/built-in-islands.ts';
import { cachedBuild, sourceFiles, type BundleResult } from './bundle-cache.ts';
import { fromEsbuildFailure, ssgAlias } from '../base/esbuild-plugins.ts';
import { ASSETS_DIR, generatorModulePaths, generatorRoot, type Project } from '../project.ts';
import type { ClientBundle, OutputAsset } from '../render/bundles.ts';

/**
 * Style sheets up to this size go into every page instead of a render-blocking request: one
 * round trip costs more first paint than these bytes on a slow line, and the sheet is not cached
 * across pages (a larger one is).
 */
const INLINE_STYLE_MAX_BYTES = 48 * 1024;

export interface IslandSource {
  name: string;
  /** The module the browser loads: the component, or the island's `<name>.client.ts`. */
  file: string;
  /** Whether `file` is plain browser code (`<name>.client.ts`) run instead of React hydration. */
  plain: boolean;
}

const SCRIPT_FILE = /\.(tsx|ts|jsx|js)$/;
const PLAIN_CLIENT_FILE = /\.client\.(ts|js)$/;

/**
 * The islands of `site/islands/`: each `<name>.tsx` (or .ts, .jsx, .js) is one. When a
 * `<name>.client.ts` (or .js) sits beside it, the browser runs that instead of hydrating the
 * component: a default-exported `(element, props) => void`, and no React is fetched for it.
 */
export async function findIslands(project: Project): Promise<IslandSource[]> {
  return [...(await siteIslands(project)), ...builtInIslands];
}

/** The generator's own islands (the copy buttons of code blocks), plain browser code every site gets. */
const builtInIslands: IslandSource[] = Object.entries(BUILT_IN_ISLANDS).map(([name, file]) => ({
  name,
  file: path.join(generatorRoot, 'src', 'runtime', file),
  plain: true,
}));

async function siteIslands(project: Project): Promise<IslandSource[]> {
  let entries: string[];
  try {
    entries = await readdir(project.islandsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const scripts = entries.filter((entry) => SCRIPT_FILE.test(entry)).sort();
  return scripts
    .filter((entry) => !PLAIN_CLIENT_FILE.test(entry))
    .map((entry) => {
      const name = entry.replace(SCRIPT_FILE, '');
      const client = scripts.find(
        (other) => PLAIN_CLIENT_FILE.test(other) && other.replace(PLAIN_CLIENT_FILE, '') === name,
      );
      return { name, file: path.join(project.islandsDir, client ?? entry), plain: client !== undefined };
    });
}

function loaderSource(islands: readonly IslandSource[]): string {
  const runtime = path.join(generatorRoot, 'src', 'runtime', 'loader.ts');
  const entries = islands.map(
    ({ name, file, plain }) =>
      `  ${JSON.stringify(name)}: { plain: ${plain}, load: () => import(${JSON.stringify(file)}) },`,
  );
  return `import { start } from ${JSON.stringify(runtime)};\nstart({\n${entries.join('\n')}\n});\n`;
}

/** Scripts: a tiny loader entry, one chunk per island, React shared between them. */
export function scriptBuildOptions(
  project: Project,
  islands: readonly IslandSource[],
  outdir: string,
): esbuild.BuildOptions {
  return {
    entryPoints: ['ssg:loader'],
    absWorkingDir: project.root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    nodePaths: generatorModulePaths,
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      ssgAlias('client'),
      {
        name: 'island-loader',
        setup(build) {
          build.onResolve({ filter: /^ssg:loader$/ }, () => ({ path: 'loader', namespace: 'ssg' }));
          build.onLoad({ filter: /.*/, namespace: 'ssg' }, () => ({
            contents: loaderSource(islands),
            resolveDir: project.root,
            loader: 'ts',
          }));
        },
      },
    ],
  };
}

export function styleBuildOptions(project: Project, outdir: string): esbuild.BuildOptions {
  return {
    entryPoints: [project.stylesEntry],
    absWorkingDir: project.root,
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: `/${ASSETS_DIR}/`,
    loader: { '.svg': 'file', '.png': 'file', '.jpg': 'file', '.webp': 'file', '.woff2': 'file', '.woff': 'file' },
    target: ['chrome100', 'firefox100', 'safari15'],
  };
}

/** The script entries' URLs by source file, and a walk over the static imports from a URL. */
function importGraph(outputs: esbuild.Metafile['outputs'], root: string, urlOf: (file: string) => string) {
  const staticImports = new Map<string, string[]>();
  const entryOf = new Map<string, string>();
  for (const [file, output] of Object.entries(outputs)) {
    const url = urlOf(file);
    staticImports.set(
      url,
      output.imports.filter((i) => i.kind === 'import-statement').map((i) => urlOf(i.path)),
    );
    if (output.entryPoint) entryOf.set(path.resolve(root, output.entryPoint.replace(/^ssg:/, '')), url);
  }
  const closure = (url: string | undefined, into: Set<string>) => {
    if (!url || into.has(url)) return;
    into.add(url);
    for (const next of staticImports.get(url) ?? []) closure(next, into);
  };
  return { entryOf, closure };
}

/** Turns esbuild's results into assets and the per-page dependency lookup. */
export function collectClientBundle(
  project: Project,
  islands: readonly IslandSource[],
  outdir: string,
  scripts: Pick<esbuild.BuildResult, 'outputFiles' | 'metafile'> | BundleResult | undefined,
  styles: Pick<esbuild.BuildResult, 'outputFiles' | 'metafile'> | BundleResult | undefined,
): ClientBundle {
  const urlOf = (file: string) =>
    `/${path.relative(path.dirname(outdir), path.resolve(project.root, file)).split(path.sep).join('/')}`;
  const assets: OutputAsset[] = [];
  for (const result of [scripts, styles]) {
    for (const file of result?.outputFiles ?? []) {
      if (file.path.endsWith('.map')) continue;
      assets.push({ path: urlOf(file.path).slice(1), contents: file.contents });
    }
  }
  const byUrl = new Map(assets.map((asset) => [`/${asset.path}`, asset]));

  const { entryOf, closure } = importGraph(scripts?.metafile?.outputs ?? {}, project.root, urlOf);

  const loaderUrl = [...entryOf.entries()].find(([entry]) => entry.endsWith(`${path.sep}loader`))?.[1];
  const hydrateUrl = entryOf.get(path.join(generatorRoot, 'src', 'runtime', 'hydrate.tsx'));
  const islandUrl = new Map(islands.map((island) => [island.name, entryOf.get(island.file)]));
  const plainIslands = new Set(islands.filter((island) => island.plain).map((island) => island.name));
  const styleUrl = Object.keys(styles?.metafile?.outputs ?? {})
    .filter((file) => file.endsWith('.css'))
    .map(urlOf)[0];

  const inlineStyle = inlineStyleOf(styleUrl, byUrl.get(styleUrl ?? ''));
  const gzipCache = new Map<string, number>();
  return {
    assets,
    sources: [scripts, styles].flatMap((result) => sourceFiles({ absWorkingDir: project.root }, result?.metafile)),
    styleUrl,
    inlineStyle,
    inlineHashes: { style: inlineStyle ? [cspHash(inlineStyle.text)] : [], script: loaderUrl ? [BOOTSTRAP_HASH] : [] },
    loaderUrl,
    islands: new Set(islands.map((island) => island.name)),
    assetsFor(pageIslands) {
      const js = new Set<string>();
      if (pageIslands.length > 0) {
        closure(loaderUrl, js);
        // React comes with the first island that hydrates with it; plain ones fetch none.
        if (pageIslands.some((name) => !plainIslands.has(name))) closure(hydrateUrl, js);
        for (const name of pageIslands) closure(islandUrl.get(name), js);
      }
      return { js: [...js], css: styleUrl ? [styleUrl] : [] };
    },
    firstPaintScripts(html) {
      const js = new Set<string>();
      // A copy of each URL: a substring would keep the whole page alive while its measures are kept.
      for (const match of html.matchAll(/<script type="module" src="([^"]+)"/g))
        closure(JSON.parse(JSON.stringify(match[1])) as string, js);
      return [...js];
    },
    gzipSize(url) {
      let size = gzipCache.get(url);
      if (size === undefined) {
        const asset = byUrl.get(url);
        size = asset ? gzipSync(asset.contents).length : 0;
        gzipCache.set(url, size);
      }
      return size;
    },
  };
}

function inlineStyleOf(url: string | undefined, asset: OutputAsset | undefined): ClientBundle['inlineStyle'] {
  if (!url || !asset || asset.contents.byteLength > INLINE_STYLE_MAX_BYTES) return undefined;
  const text = new TextDecoder().decode(asset.contents);
  // `</style` would end the element early; such a sheet stays a file.
  return /<\/style/i.test(text) ? undefined : { url, text };
}

export async function bundleClient(project: Project, outdir: string): Promise<ClientBundle> {
  const islands = await findIslands(project);
  const hasStyles = existsSync(project.stylesEntry);
  try {
    const [scripts, styles] = await Promise.all([
      // The island loader is generated from the list of islands: that list is part of the key.
      islands.length > 0
        ? cachedBuild(project.cacheDir, 'scripts', scriptBuildOptions(project, islands, outdir), loaderSource(islands))
        : undefined,
      hasStyles ? cachedBuild(project.cacheDir, 'styles', styleBuildOptions(project, outdir), '') : undefined,
    ]);
    return collectClientBundle(project, islands, outdir, scripts, styles);
  } catch (error) {
    throw fromEsbuildFailure(error, 'ClientCompileFailed', project.root);
  }
}
