import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a site keeps each kind of input, relative to its root. One place for the conventions. */
export interface Project {
  root: string;
  siteEntry: string;
  islandsDir: string;
  stylesEntry: string;
  publicDir: string;
  template: string;
  contentDir: string;
  /** The YAML file in contentDir that holds `baseUrl` for the generator. */
  siteConfigName: string;
  cacheDir: string;
}

export function projectAt(root: string): Project {
  const at = (...parts: string[]) => path.join(root, ...parts);
  return {
    root,
    siteEntry: at('site', 'index.tsx'),
    islandsDir: at('site', 'islands'),
    stylesEntry: at('site', 'styles', 'index.css'),
    publicDir: at('site', 'public'),
    template: at('templates', 'document.html'),
    contentDir: at('content'),
    siteConfigName: 'site',
    cacheDir: at('.cache', 'ssg'),
  };
}

/** The generator's own folder, for its runtime files and its node_modules. */
// A helper compiled into a site's cache folder is told where the generator is (compileHelper).
declare const SSG_GENERATOR_ROOT: string | undefined;
export const generatorRoot =
  typeof SSG_GENERATOR_ROOT === 'string'
    ? SSG_GENERATOR_ROOT
    : findGeneratorRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The node_modules folders the generator's own packages (esbuild, React, the Markdown pipeline)
 * resolve from, nearest first, as Node looks: its own, then those above it. In a checkout that is
 * `<root>/node_modules`; installed as a package, its packages are mostly hoisted beside it.
 */
export const generatorModulePaths = modulePathsFrom(generatorRoot);

/** The one of them holding the generator's packages (where esbuild is installed), and npm's record of them. */
export const generatorNodeModules =
  generatorModulePaths.find((dir) => existsSync(path.join(dir, 'esbuild', 'package.json'))) ?? generatorModulePaths[0]!;

/** The folder of the output (and of the image cache's files) that holds the hashed assets. */
export const ASSETS_DIR = 'assets';

export function relativeToRoot(project: Project, file: string): string {
  return path.relative(project.root, file) || '.';
}

function modulePathsFrom(from: string): string[] {
  const paths: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') paths.push(path.join(dir, 'node_modules'));
    if (path.dirname(dir) === dir) return paths;
  }
}

/**
 * The generator's own folder: the one holding `src/cli/cli.ts`, looked for upwards, since the CLI
 * runs either from its TypeScript sources or from a compiled copy below `.cache/`.
 */
function findGeneratorRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'src', 'cli', 'cli.ts'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}
