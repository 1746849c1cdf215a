// ssg as a site installs it: the tarball `npm run package` packs, installed into an empty folder
// offline, at the versions the repository locked (its lockfile, less what only the repository
// needs), taken from npm's cache, which the repository's `npm ci` filled. No traffic leaves the
// machine. Used by tests/package.test.ts and `npm run bench:package`.
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './project.ts';

const run = promisify(execFile);

/** A line of npm's output that reports a peer-dependency conflict. */
export const PEER_CONFLICT = /ERESOLVE|peer dep/i;

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * A lockfile for a project whose one dependency is the tarball: what the package needs (its
 * dependencies and required peers, and theirs), at the versions the repository locked, found as
 * Node finds them (nested first, then hoisted).
 */
export function lockfileFor(tarball: string, manifest: Manifest): object {
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const registry = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim().replace(/\/?$/, '/');
  const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => !manifest.peerDependenciesMeta?.[name]?.optional,
  );
  const packages: Record<string, LockEntry> = {
    '': { name: 'installed-ssg', dependencies: { ssg: `file:${tarball}` } },
    'node_modules/ssg': {
      version: manifest.version,
      resolved: `file:${tarball}`,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: { ssg: 'bin/ssg.js' },
    },
  };
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.includes('/node_modules/') ? at.slice(0, at.lastIndexOf('/node_modules/')) : '') {
      const where = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (lock.packages[where]) return where;
      if (at === '') return undefined;
    }
  };
  const queue: Array<[string, string, boolean]> = [...Object.keys(manifest.dependencies), ...peers].map((name) => [
    '',
    name,
    false,
  ]);
  while (queue.length > 0) {
    const [from, name, optional] = queue.pop()!;
    const where = resolve(from, name);
    if (!where) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${from || 'ssg'}) is not in the repository's lockfile`);
    }
    if (packages[where]) continue;
    const { dev: _dev, devOptional: _devOptional, ...entry } = lock.packages[where]!;
    // This machine's npm leaves registry URLs out of lockfiles (omit-lockfile-registry-resolved):
    // named here, each tarball comes from npm's cache by its URL and integrity, with no lookup of
    // the package's metadata, which an offline install may not have.
    if (!entry.resolved && typeof entry.integrity === 'string' && typeof entry.version === 'string') {
      const pkg = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      entry.resolved = `${registry}${pkg}/-/${pkg.split('/').pop()}-${entry.version}.tgz`;
    }
    packages[where] = entry;
    for (const next of Object.keys(entry.dependencies ?? {})) queue.push([where, next, false]);
    for (const next of Object.keys(entry.optionalDependencies ?? {})) queue.push([where, next, true]);
  }
  return { name: 'installed-ssg', lockfileVersion: 3, requires: true, packages };
}

/** Packs ssg into `scratch` as `npm run package` does: the tarball and its manifest. */
export async function packSsg(scratch: string): Promise<{ tarball: string; names: string[]; manifest: Manifest }> {
  const { stdout } = await run(process.execPath, ['scripts/pack.js', '--json', '--pack-destination', scratch], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const tarball = path.join(scratch, packed!.filename);
  const manifest = JSON.parse(
    execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as Manifest;
  return { tarball, names: packed!.files.map((file) => file.path), manifest };
}

/** Installs the tarball into a new project folder, offline; npm's output (its warnings) is returned. */
export async function installPacked(
  project: string,
  tarball: string,
  manifest: Manifest,
): Promise<{ stdout: string; stderr: string }> {
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'installed-ssg', private: true, dependencies: { ssg: `file:${tarball}` } }, null, 2),
  );
  await writeFile(path.join(project, 'package-lock.json'), JSON.stringify(lockfileFor(tarball, manifest), null, 2));
  return run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
}
