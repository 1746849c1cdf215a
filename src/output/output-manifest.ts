// What the last build left in an output folder, so that a build making the same bytes can leave
// the folder alone and carry unchanged files over instead of writing them again.
import { existsSync, lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import { readEntrySync, writeEntrySync } from '../cache/store.ts';
import { listFiles } from './output-file.ts';

/**
 * A file's or folder's size, modification and change time and inode. Any write, rename, `touch`
 * or `chmod` changes one of them, and the change time cannot be set back (`touch -r` and `cp -p`
 * set the modification time only).
 */
export type Fingerprint = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/** What the last build left in an output folder: each file's content hash and fingerprint. */
export interface OutputManifest {
  version: 2;
  outDir: string;
  /** Generated files: path → sha1 of the contents. */
  hashes: Record<string, string>;
  /** Public files: path → [size, mtimeMs] of the source in public/. */
  publicSources: Record<string, [number, number]>;
  /**
   * Every file of the output (generated, and the copies of the public files) and every folder
   * holding one ('' for the output folder itself: a file added or removed changes its folder).
   */
  stats: Record<string, Fingerprint>;
}

const MANIFEST_VERSION = 2;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumbers = (value: unknown, length: number) =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number');

/** The manifest, if its entry is intact and of the expected shape (anything else: rebuild). */
function readManifest(file: string, outDir: string): OutputManifest | undefined {
  const payload = readEntrySync(file);
  if (!payload) return undefined;
  try {
    const manifest = JSON.parse(payload.toString('utf8')) as OutputManifest;
    if (manifest.version !== MANIFEST_VERSION || manifest.outDir !== outDir) return undefined;
    const { hashes, publicSources, stats } = manifest as Partial<OutputManifest>;
    const shaped =
      isRecord(hashes) &&
      Object.values(hashes).every((hash) => typeof hash === 'string') &&
      isRecord(publicSources) &&
      Object.values(publicSources).every((entry) => isNumbers(entry, 2)) &&
      isRecord(stats) &&
      Object.values(stats).every((entry) => isNumbers(entry, 4));
    return shaped ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export const fingerprintOfStat = (stat: Stats): Fingerprint => [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];

// Of the entry itself: a public symlink is copied as it is, and its target may be anywhere (or nowhere).
const fingerprintOf = (file: string): Fingerprint => fingerprintOfStat(lstatSync(file));

const sameFingerprint = (file: string, recorded: Fingerprint) => {
  try {
    return fingerprintOf(file).every((value, index) => value === recorded[index]);
  } catch {
    return false;
  }
};

const sameSource = (file: string, [size, mtimeMs]: [number, number]) => {
  try {
    const stat = lstatSync(file);
    return (stat.isFile() || stat.isSymbolicLink()) && stat.size === size && stat.mtimeMs === mtimeMs;
  } catch {
    return false;
  }
};

/**
 * Whether the output folder still holds exactly what the manifest recorded (no file or folder
 * added, removed, written or touched since, public copies included) and the public files are the
 * ones it was built from. Only then can a build that makes the same bytes leave the folder alone.
 */
function outputIntact(manifest: OutputManifest, outDir: string, publicDir: string, publicFiles: string[]): boolean {
  if (publicFiles.length !== Object.keys(manifest.publicSources).length) return false;
  for (const file of publicFiles) {
    const recorded = manifest.publicSources[file];
    if (!recorded || !sameSource(path.join(publicDir, file), recorded)) return false;
  }
  // The folders' own stats stand for their listings: a stat each is far cheaper than reading them.
  return Object.entries(manifest.stats).every(([entry, recorded]) =>
    sameFingerprint(path.join(outDir, entry), recorded),
  );
}

/** The manifest of the last build, when the output folder still holds exactly what it lists. */
export function intactManifest(
  manifestFile: string | undefined,
  outDir: string,
  publicDir: string,
  publicFiles: string[],
): OutputManifest | undefined {
  const manifest = manifestFile && existsSync(outDir) ? readManifest(manifestFile, outDir) : undefined;
  return manifest && outputIntact(manifest, outDir, publicDir, publicFiles) ? manifest : undefined;
}

/** Whether `outDir` still holds exactly what the last build recorded in `manifestFile`, from the same public files. */
export async function outputStillIntact(manifestFile: string, outDir: string, publicDir: string): Promise<boolean> {
  return intactManifest(manifestFile, outDir, publicDir, await listFiles(publicDir)) !== undefined;
}

/** Records what the output folder now holds, for the next build to compare with. */
export async function saveManifest(
  manifestFile: string,
  outDir: string,
  publicDir: string,
  generated: Map<string, string>,
  publicFiles: string[],
): Promise<void> {
  const publicSources: OutputManifest['publicSources'] = {};
  for (const file of publicFiles) {
    const stat = lstatSync(path.join(publicDir, file));
    publicSources[file] = [stat.size, stat.mtimeMs];
  }
  const stats: OutputManifest['stats'] = {};
  for (const file of [...generated.keys(), ...publicFiles]) {
    stats[file] = fingerprintOf(path.join(outDir, file));
    // The file's folder and each above it, up to the output folder itself ('').
    for (let folder = path.posix.dirname(file); ; folder = path.posix.dirname(folder)) {
      const key = folder === '.' ? '' : folder;
      if (key in stats) break;
      stats[key] = fingerprintOf(path.join(outDir, key));
      if (key === '') break;
    }
  }
  const next: OutputManifest = {
    version: MANIFEST_VERSION,
    outDir,
    hashes: Object.fromEntries(generated),
    publicSources,
    stats,
  };
  writeEntrySync(manifestFile, Buffer.from(JSON.stringify(next)));
}

/** Where a file the output folder holds byte for byte (its hash the manifest's) can be carried over from. */
export function carrySource(
  manifest: OutputManifest | undefined,
  outDir: string,
  file: string,
  hash: string | undefined,
) {
  const recorded = manifest?.stats[file];
  return recorded && hash !== undefined && manifest!.hashes[file] === hash
    ? { file: path.join(outDir, file), recorded }
    : undefined;
}
