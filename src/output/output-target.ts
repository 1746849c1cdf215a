import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { catalogueError, type SsgError } from '../errors/errors.ts';
import { generatorRoot, type Project } from '../project.ts';

/**
 * The file every build writes beside its output folder (`dist.ssg-output` beside `dist`, as the
 * lock is `dist.lock`). A folder it vouches for was written by a build and may be replaced by the
 * next; any other non-empty folder is left alone. Beside the folder, not in it: what is in the
 * folder is uploaded and served, and no host recipe could keep every host from serving it
 * (Cloudflare Pages uploads dotfiles). It names the folder as the build swapped it in (see
 * `folderIdentity`), so a folder made anew at that path (`rm -rf dist; mkdir dist`) is not vouched for.
 */
export const outputMarkerOf = (outDir: string) => `${outDir}.ssg-output`;
const OUTPUT_MARKER_TEXT =
  'The folder beside this file, of the same name, was written by "ssg build", which replaces its contents on every build.\n';

/**
 * The identity a marker records of its folder: device, inode and birth time (an inode number is
 * reused at once by a folder made anew at the same path; where the file system keeps no birth
 * time, the change time, which any change of the folder's entries moves on).
 */
function folderIdentity(outDir: string): string | undefined {
  const stats = statSync(outDir, { bigint: true, throwIfNoEntry: false });
  return stats?.isDirectory() ? `${stats.dev}:${stats.ino}:${stats.birthtimeNs || stats.ctimeNs}` : undefined;
}

/** Whether the marker beside `outDir` is a file (not a link or a folder) that names this very folder. */
function markedAsOutput(outDir: string): boolean {
  const marker = outputMarkerOf(outDir);
  if (!lstatSync(marker, { throwIfNoEntry: false })?.isFile()) return false;
  try {
    const identity = /^folder (\d+:\d+:\d+)$/m.exec(readFileSync(marker, 'utf8'))?.[1];
    return identity !== undefined && identity === folderIdentity(outDir);
  } catch {
    return false;
  }
}
/** Where earlier versions kept the marker: inside the folder. Still read; the next build removes it. */
export const OUTPUT_MARKER = '.ssg-output';

/** Entries of a deploy checkout (a gh-pages worktree, say) that survive replacing the folder. */
export const KEPT_ENTRIES = ['.git', 'CNAME', '.nojekyll'] as const;

/** Folders of a project that are never an output folder, nor hold one. */
const SOURCE_FOLDERS = ['content', 'site', 'templates', 'src', 'node_modules', '.git', '.cache'];

/** Files every earlier build wrote at the top of its output: how a folder from before the marker is recognised. */
const EARLIER_OUTPUT_SIGNATURE = ['_headers', 'sitemap.xml', 'assets'];

/** Symbolic links followed before giving up: the kernel's own limit. */
const MAX_LINKS = 40;

export const isInside = (folder: string, candidate: string) => {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
};

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The nearest existing ancestor of a path (itself included): the file that blocks it, for ENOTDIR. */
function nearestExisting(target: string): string {
  let at = target;
  for (let hops = 0; hops < 4096 && !existsSync(at); hops++) at = path.dirname(at);
  return at;
}

/**
 * Where a path really is: symbolic links resolved, also a dangling link at the end (the site then
 * goes to the link's target) and folders that do not exist yet.
 */
function realLocation(target: string, shown: string, hops = 0): string {
  if (hops > MAX_LINKS) {
    throw catalogueError('OutDirThroughFile', ['linkLoop', shown]);
  }
  try {
    return realpathSync.native(target);
  } catch (error) {
    if (errnoOf(error) === 'ENOTDIR') {
      throw catalogueError('OutDirThroughFile', ['file', shown, nearestExisting(target)]);
    }
    if (errnoOf(error) === 'ELOOP') return realLocation(target, shown, MAX_LINKS + 1);
    if (errnoOf(error) === 'ENAMETOOLONG') throw catalogueError('OutDirInvalid', ['nameTooLong', shown]);
    if (errnoOf(error) !== 'ENOENT') {
      throw catalogueError('OutDirNotWritable', ['unreachable', shown, (error as Error).message], {}, { cause: error });
    }
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  const here = path.join(realLocation(parent, shown, hops + 1), path.basename(target));
  let link: string;
  try {
    link = readlinkSync(here);
  } catch {
    return here; // not there yet
  }
  return realLocation(path.resolve(path.dirname(here), link), shown, hops + 1);
}

const realOrAsIs = (file: string) => {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
};

/** Refuses the project, what holds it, and its source folders; the reason names which. */
function checkNotSources(outDir: string, project: Project, shown: string): void {
  const root = realOrAsIs(project.root);
  for (const protectedRoot of new Set([root, realOrAsIs(generatorRoot)])) {
    if (isInside(outDir, protectedRoot)) {
      throw catalogueError('OutDirContainsProject', [shown, outDir, protectedRoot]);
    }
  }
  for (const name of SOURCE_FOLDERS) {
    for (const source of new Set([path.join(root, name), realOrAsIs(path.join(root, name))])) {
      if (isInside(source, outDir)) {
        throw catalogueError('OutDirInSources', [shown, outDir, source, name]);
      }
    }
  }
}

/** Whether a folder without the marker is the output of an earlier build (from before the marker). */
function isEarlierOutput(entries: readonly string[]): boolean {
  return EARLIER_OUTPUT_SIGNATURE.every((name) => entries.includes(name)) && !entries.includes('.git');
}

const mountPointError = (outDir: string, shown: string) => catalogueError('OutDirIsMountPoint', [shown, outDir]);

/**
 * Refuses a folder on another file system than its parent (a Docker volume, a tmpfs): renaming it
 * out of the way fails with EBUSY, after a whole build. A bind mount of the same file system is
 * caught when the swap fails instead (see `mountPointFailure`).
 */
function checkNotMountPoint(outDir: string, shown: string, device: number): void {
  const parent = path.dirname(outDir);
  if (parent !== outDir && statSync(parent).dev !== device) throw mountPointError(outDir, shown);
}

/** The error for a swap that failed because the output folder is a mount point; undefined for any other failure. */
export function mountPointFailure(error: unknown, outDir: string): SsgError | undefined {
  return errnoOf(error) === 'EBUSY' && (error as NodeJS.ErrnoException).path === outDir
    ? mountPointError(outDir, outDir)
    : undefined;
}

/**
 * Whether the build may replace what `outDir` holds: true when it holds files the build will
 * replace, false when it is missing or empty. Refuses a file and a non-empty folder no build
 * wrote, unless `emptyOutDir` says to replace it.
 */
export function checkOwnership(outDir: string, shown: string, emptyOutDir: boolean): boolean {
  let stat;
  try {
    stat = statSync(outDir);
  } catch {
    return false; // does not exist yet: the build makes it
  }
  if (!stat.isDirectory()) {
    throw catalogueError('OutDirIsFile', [shown, outDir]);
  }
  checkNotMountPoint(outDir, shown, stat.dev);
  const entries = readdirSync(outDir);
  if (entries.length === 0) return false;
  if (markedAsOutput(outDir) || entries.includes(OUTPUT_MARKER) || isEarlierOutput(entries) || emptyOutDir) return true;
  throw catalogueError('OutDirNotOwned', [shown, outDir, entries]);
}

/**
 * Checks an `--out` value and says where the site really goes (links resolved). Refuses an empty
 * value, the project or a folder holding it, the source folders and anything in them, and a path
 * through a file. Whether the folder may be replaced is `checkOwnership`'s question, asked once
 * no other build can write there.
 */
export function resolveOutDir(project: Project, value: string): string {
  if (value.trim() === '') {
    throw catalogueError('OutDirEmpty', [value]);
  }
  if (value.includes('\0')) throw catalogueError('OutDirInvalid', ['nulCharacter', value]);
  const outDir = realLocation(path.resolve(project.root, value), value);
  checkNotSources(outDir, project, value);
  return outDir;
}

/** Refuses a `-C` folder that does not exist or is not a folder. */
export function checkProjectRoot(root: string, shown: string): void {
  let stat;
  try {
    stat = statSync(root);
  } catch {
    throw catalogueError('ProjectRootMissing', ['missing', shown, root]);
  }
  if (!stat.isDirectory()) throw catalogueError('ProjectRootMissing', ['notAFolder', shown, root]);
}

/**
 * Says beside the output folder that a build wrote it (see `outputMarkerOf`), and removes the
 * marker an earlier version wrote into it, where hosts served it. A marker that cannot be written
 * costs the next build a question (`--empty-out-dir`), not this one.
 */
export function markOutput(outDir: string): void {
  const marker = outputMarkerOf(outDir);
  const temporary = `${marker}.tmp-${process.pid}`;
  let written = false;
  try {
    rmSync(path.join(outDir, OUTPUT_MARKER), { force: true });
    if (markedAsOutput(outDir)) return;
    // Only a file of its own: a link there (even to nothing) or a folder is never written through.
    const there = lstatSync(marker, { throwIfNoEntry: false });
    if (there && !there.isFile()) return;
    writeFileSync(temporary, `${OUTPUT_MARKER_TEXT}folder ${folderIdentity(outDir)}\n`, { flag: 'wx' });
    written = true;
    renameSync(temporary, marker);
  } catch {
    // A read-only parent folder, say: the next build asks for --empty-out-dir.
    if (written) rmSync(temporary, { force: true });
  }
}
