import { readFileSync } from 'node:fs';
import path from 'node:path';

interface LockPackage {
  version?: string;
  dependencies?: Record<string, string>;
}

/** The bare package names a source file imports (`unified`, `@scope/name`), no Node built-ins. */
export function importedPackages(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\bfrom\s+['"]([^'"./][^'"]*)['"]/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return [...names].sort();
}

/**
 * The installed version of each of `roots` and of everything they depend on, as npm recorded it
 * in `node_modules/.package-lock.json`: cached output made by these packages is stale as soon as
 * any of them changes. Without that record, the roots' own package.json versions.
 */
export function packageVersions(nodeModules: string, roots: readonly string[]): Record<string, string> {
  let lock: Record<string, LockPackage> | undefined;
  try {
    const packages: unknown = (
      JSON.parse(readFileSync(path.join(nodeModules, '.package-lock.json'), 'utf8')) as { packages?: unknown } | null
    )?.packages;
    lock = typeof packages === 'object' && packages !== null ? (packages as Record<string, LockPackage>) : undefined;
  } catch {
    lock = undefined;
  }
  const versions: Record<string, string> = {};
  const queue = [...roots];
  // Bounded by the number of installed packages: each name is visited once.
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (name in versions) continue;
    const entry = lock?.[`node_modules/${name}`] ?? readManifest(nodeModules, name);
    versions[name] = typeof entry?.version === 'string' ? entry.version : 'missing';
    const dependencies = entry?.dependencies;
    if (lock && typeof dependencies === 'object' && dependencies !== null) queue.push(...Object.keys(dependencies));
  }
  return Object.fromEntries(Object.entries(versions).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function readManifest(nodeModules: string, name: string): LockPackage | undefined {
  try {
    return JSON.parse(readFileSync(path.join(nodeModules, name, 'package.json'), 'utf8')) as LockPackage;
  } catch {
    return undefined;
  }
}

/** The versions of the packages files under `node_modules` belong to (`node_modules/@scope/name/…`), read once each. */
export function versionsOfPackages(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
    if (match) dirs.add(match[1]!);
  }
  return [...dirs].sort().map((dir) => {
    try {
      return `${dir.split(/node_modules[\\/]/).pop()}@${(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version}`;
    } catch {
      return `${dir}@?`;
    }
  });
}
