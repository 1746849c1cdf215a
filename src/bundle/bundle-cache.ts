import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type * as esbuild from 'esbuild';
import { readEntrySync, writeEntrySync } from '../cache/store.ts';
import { generatorNodeModules, generatorRoot } from '../project.ts';

/** The parts of an esbuild result the generator reads. */
export interface BundleResult {
  outputFiles: Array<{ path: string; contents: Uint8Array }>;
  metafile: esbuild.Metafile;
}

interface Stored {
  key: string;
  /** Every file the bundle was made from: path → [size, mtimeMs]. */
  inputs: Record<string, [number, number]>;
  /** The names in each folder that held an input: a new file there could change what an import finds. */
  folders: Record<string, string>;
  result: BundleResult;
}

const statOf = (file: string): [number, number] | undefined => {
  try {
    const stat = statSync(file);
    return [stat.size, stat.mtimeMs];
  } catch {
    return undefined;
  }
};

const listing = (folder: string): string => {
  try {
    return readdirSync(folder).sort().join('\n');
  } catch {
    return '';
  }
};

/** The files on disk a bundle was made from, absolute: its metafile's inputs but virtual modules and stdin. */
export function sourceFiles(
  options: Pick<esbuild.BuildOptions, 'absWorkingDir' | 'stdin'>,
  metafile: esbuild.Metafile | undefined,
): string[] {
  const base = options.absWorkingDir ?? process.cwd();
  return Object.keys(metafile?.inputs ?? {})
    .filter((input) => !input.startsWith('<') && !/^[a-z-]+:/.test(input) && input !== options.stdin?.sourcefile)
    .map((input) => path.resolve(base, input));
}

let generator: string | undefined;
/**
 * esbuild's version and the generator's plugins, which decide how imports resolve: a new version
 * of either is a new bundle. Read from files, so that a build which needs no bundling never loads
 * esbuild at all.
 */
const generatorStamp = () =>
  (generator ??= createHash('sha1')
    .update(readFileSync(path.join(generatorNodeModules, 'esbuild', 'package.json')))
    .update(readFileSync(path.join(generatorRoot, 'src', 'base', 'esbuild-plugins.ts')))
    .digest('hex'));

/** A stored bundle of the expected shape, or undefined (absent, damaged, or of an older layout). */
function readStored(file: string): Stored | undefined {
  const payload = readEntrySync(file);
  if (!payload) return undefined;
  try {
    const stored = deserialize(payload) as Partial<Stored> | null;
    const result = stored?.result;
    const shaped =
      typeof stored?.key === 'string' &&
      typeof stored.inputs === 'object' &&
      stored.inputs !== null &&
      typeof stored.folders === 'object' &&
      stored.folders !== null &&
      Array.isArray(result?.outputFiles) &&
      result.outputFiles.every((output) => typeof output?.path === 'string' && output.contents instanceof Uint8Array) &&
      typeof result.metafile === 'object' &&
      result.metafile !== null;
    return shaped ? (stored as Stored) : undefined;
  } catch {
    return undefined;
  }
}

function fresh(stored: Stored, key: string): boolean {
  if (stored.key !== key) return false;
  for (const [file, [size, mtimeMs]] of Object.entries(stored.inputs)) {
    const now = statOf(file);
    if (!now || now[0] !== size || now[1] !== mtimeMs) return false;
  }
  return Object.entries(stored.folders).every(([folder, names]) => listing(folder) === names);
}

/**
 * `esbuild.build`, remembered in the cache: while none of the files a bundle was made from has
 * changed (size and time), and no file appeared beside them, the stored output is used and
 * esbuild is not asked at all. `key` must name everything else the output depends on that the
 * options do not show (plugins are functions: what they generate goes in the key).
 */
export async function cachedBuild(
  cacheDir: string,
  name: string,
  options: esbuild.BuildOptions,
  key: string,
): Promise<BundleResult> {
  const file = path.join(cacheDir, 'bundles', `${name}.bin`);
  const fullKey = JSON.stringify([
    generatorStamp(),
    key,
    { ...options, plugins: options.plugins?.map((plugin) => plugin.name) },
  ]);
  const stored = readStored(file);
  if (stored && fresh(stored, fullKey)) return stored.result;
  const started = Date.now();
  const { build } = await import('esbuild');
  const built = await build({ ...options, write: false, metafile: true });
  const result: BundleResult = {
    outputFiles: (built.outputFiles ?? []).map((output) => ({ path: output.path, contents: output.contents })),
    metafile: built.metafile!,
  };
  try {
    const inputs: Stored['inputs'] = {};
    const folders: Stored['folders'] = {};
    for (const input of sourceFiles(options, result.metafile)) {
      const stat = statOf(input);
      // A generated input cannot be checked later, and one changed while esbuild ran may not be
      // what it read: either way the bundle is not kept.
      if (!stat || stat[1] >= started) return result;
      inputs[input] = stat;
      if (!input.includes(`${path.sep}node_modules${path.sep}`))
        folders[path.dirname(input)] ??= listing(path.dirname(input));
    }
    writeEntrySync(file, serialize({ key: fullKey, inputs, folders, result } satisfies Stored));
  } catch {
    // Not kept: the next build bundles again.
  }
  return result;
}
