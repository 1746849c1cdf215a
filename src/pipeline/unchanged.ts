// A build with nothing to do: every input is as for the last build into this output folder, and
// the folder still holds exactly what that build wrote. The build reports the last result and
// writes nothing, without reading an article.
//
// Inputs: content/, site/, templates/, the package files and npm's install record, the generator,
// Node's version, time zone, locale, options, every file the site's code was bundled from, and the
// date (a record holds until the next UTC midnight or the first held-back article falls due).
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { sourceFingerprint } from '../base/fingerprint.ts';
import { dateEnvironment, pageCacheFile } from '../render/page-cache.ts';
import { markdownCacheFile } from '../content/markdown-cache.ts';
import { readEntrySync, writeEntrySync } from '../cache/store.ts';
import type { PageSizes } from './build-result.ts';
import { fingerprintOfStat, outputStillIntact } from '../output/output-manifest.ts';
import { isInside } from '../output/output-target.ts';
import { generatorRoot, type Project } from '../project.ts';

/** What a build reports, kept for the next one to repeat. */
export interface BuildReport {
  pages: PageSizes[];
  articles: number;
  warnings: string[];
}

interface UnchangedRecord {
  version: 4;
  stamp: string;
  /** ms since the epoch: the build's time; a clock set back may make another site (an earlier day). */
  builtAt: number;
  /** ms since the epoch: after this the same inputs may make another site. */
  validUntil: number;
  /** The files outside the stamped folders the site's code was bundled from: path → fingerprint. */
  sources: Record<string, string>;
  /**
   * A hash of the output manifest as this build left it: a later build that swapped its site in
   * and was stopped before keeping its own record wrote another manifest, so this record no longer
   * speaks for the folder.
   */
  manifest: string;
  /** The caches this build left (the Markdown and page caches): one gone since means building in full, which writes it again. */
  caches: string[];
  report: BuildReport;
}

/**
 * The caches every full build leaves beside its record (it writes each one it did not find): one
 * gone since, even removed while that build ran, means building in full, which writes it again.
 */
const keptCaches = (project: Project) => [markdownCacheFile(project.cacheDir), pageCacheFile(project.cacheDir)];

export interface StampOptions {
  baseUrl?: string;
  drafts?: boolean;
  future?: boolean;
  /** The articles' limits: a build that would refuse an article now must not find "nothing changed". */
  limits?: object;
}

const RECORD_VERSION = 4;

/**
 * Every file and folder under `dir` (none when it does not exist), by path, size and times, into
 * `hash`. False when a link leads to a folder: what is inside it is not listed, so no stamp.
 */
function hashTree(hash: ReturnType<typeof createHash>, dir: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  } catch {
    hash.update(`${dir}\0missing\0`);
    return true;
  }
  return entries.every((entry) => hashFile(hash, path.join(dir, entry)));
}

function hashFile(hash: ReturnType<typeof createHash>, file: string): boolean {
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch {
    hash.update(`${file}\0unreadable\0`);
    return true;
  }
  if (stat.isDirectory()) {
    hash.update(`${file}\0folder\0`);
    return !lstatSync(file).isSymbolicLink();
  }
  hash.update(`${file}\0${fingerprintText(stat)}\0`);
  return true;
}

/** A file's size, times and inode as text (see output.ts): any write, rename or `touch` changes one of them. */
const fingerprintText = (stat: Stats) => fingerprintOfStat(stat).join('\0');

/** The fingerprint of the file at `file` as text, or 'unreadable'. */
function fingerprintOf(file: string): string {
  try {
    return fingerprintText(statSync(file));
  } catch {
    return 'unreadable';
  }
}

/**
 * One hash of everything a build of `project` with `options` is made from, the date aside;
 * undefined when the inputs cannot be told apart by their files (a linked folder among them).
 */
export function inputStamp(project: Project, outDir: string, options: StampOptions): string | undefined {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      RECORD_VERSION,
      process.version,
      process.env.NODE_ENV ?? '',
      dateEnvironment(),
      sourceFingerprint(generatorRoot),
      outDir,
      options.baseUrl ?? null,
      Boolean(options.drafts),
      Boolean(options.future),
      options.limits ?? null,
    ]),
  );
  for (const dir of stampedFolders(project)) {
    if (!hashTree(hash, dir)) return undefined;
  }
  for (const file of ['package.json', 'package-lock.json', path.join('node_modules', '.package-lock.json')])
    hashFile(hash, path.join(project.root, file));
  return hash.digest('hex');
}

/** The folders whose every file is in the stamp. */
const stampedFolders = (project: Project) => [
  project.contentDir,
  path.dirname(project.siteEntry),
  path.dirname(project.template),
];

const folderId = (outDir: string) => createHash('sha1').update(outDir).digest('hex').slice(0, 12);

/** Where a build records what it left in an output folder, file by file (one record per folder). */
export const manifestFileOf = (project: Project, outDir: string) =>
  path.join(project.cacheDir, `output-${folderId(outDir)}.json`);

/** Where the inputs and report of the last build into `outDir` are kept (one per output folder). */
const recordFile = (project: Project, outDir: string) =>
  path.join(project.cacheDir, `unchanged-${folderId(outDir)}.json`);

/**
 * The next UTC midnight after `now`, or the first held-back date after it if sooner; `now` itself
 * (the record never holds) when one of the dates is `now`: an article dated by the build.
 */
export function validUntil(now: Date, dates: readonly number[]): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.min(midnight, ...dates.filter((time) => time >= now.getTime()));
}

function readRecord(file: string): UnchangedRecord | undefined {
  const payload = readEntrySync(file);
  if (!payload) return undefined;
  try {
    const record = JSON.parse(payload.toString('utf8')) as Partial<UnchangedRecord> | null;
    const report = record?.report;
    const shaped =
      record?.version === RECORD_VERSION &&
      typeof record.stamp === 'string' &&
      typeof record.builtAt === 'number' &&
      typeof record.validUntil === 'number' &&
      typeof record.sources === 'object' &&
      record.sources !== null &&
      Object.values(record.sources).every((value) => typeof value === 'string') &&
      typeof record.manifest === 'string' &&
      Array.isArray(record.caches) &&
      record.caches.every((file) => typeof file === 'string') &&
      typeof report === 'object' &&
      report !== null &&
      Array.isArray(report.pages) &&
      typeof report.articles === 'number' &&
      Array.isArray(report.warnings) &&
      report.warnings.every((warning) => typeof warning === 'string');
    return shaped ? (record as UnchangedRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last build's report, when this build would make the same site and the output folder still
 * holds it untouched; undefined otherwise (build in full).
 */
export async function unchangedReport(
  project: Project,
  outDir: string,
  manifestFile: string,
  stamp: string,
  now: Date,
): Promise<BuildReport | undefined> {
  const record = readRecord(recordFile(project, outDir));
  if (!record || record.stamp !== stamp || now.getTime() < record.builtAt || now.getTime() >= record.validUntil)
    return undefined;
  if (!Object.entries(record.sources).every(([file, fingerprint]) => fingerprintOf(file) === fingerprint))
    return undefined;
  if (manifestHash(manifestFile) !== record.manifest) return undefined;
  if (!record.caches.every((file) => statSync(file, { throwIfNoEntry: false })?.isFile())) return undefined;
  return (await outputStillIntact(manifestFile, outDir, project.publicDir)) ? record.report : undefined;
}

/** The hash of the output manifest's entry as it is now ('' when there is none). */
function manifestHash(manifestFile: string): string {
  const payload = readEntrySync(manifestFile);
  return payload ? createHash('sha256').update(payload).digest('hex') : '';
}

/** Some margin for the file system's coarse clock, which may lag the process's by a tick. */
const CLOCK_MARGIN_MS = 100;

/**
 * Keeps what this build made of these inputs (without it, the next build builds in full). Not kept
 * when a bundled file outside the stamped folders changed since `started`: the bundle may hold either version.
 */
export function saveUnchangedRecord(
  project: Project,
  outDir: string,
  started: number,
  record: Omit<UnchangedRecord, 'version' | 'sources' | 'manifest' | 'caches'> & { sources: readonly string[] },
): void {
  const manifest = manifestHash(manifestFileOf(project, outDir));
  if (manifest === '') return; // nothing to tie the record to: the next build builds in full
  const folders = stampedFolders(project);
  const sources: Record<string, string> = {};
  for (const file of new Set(record.sources)) {
    if (folders.some((folder) => isInside(folder, file))) continue; // in the stamp already
    try {
      if (statSync(file).ctimeMs >= started - CLOCK_MARGIN_MS) return;
    } catch {
      return;
    }
    sources[file] = fingerprintOf(file);
  }
  try {
    const caches = keptCaches(project);
    writeEntrySync(
      recordFile(project, outDir),
      Buffer.from(JSON.stringify({ version: RECORD_VERSION, ...record, sources, manifest, caches })),
    );
  } catch {
    // Not kept: the next build builds in full.
  }
}
