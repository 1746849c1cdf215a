import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** A file opened for one response; whoever opens it closes it. */
export interface OpenFile {
  /** The path asked for (a symlink keeps its own name, and so its content type). */
  file: string;
  handle: FileHandle;
  stats: Stats;
}

/** Errors that mean "no such file here" rather than a fault of the disk or the process. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EACCES', 'EPERM', 'EISDIR', 'ENXIO']);

function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException)?.code ?? '');
}

function isInside(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Opens `file` when it is a regular file whose real path is inside `root`: a symlink may not lead
 * out of the site. Holding the handle keeps the content readable while a build swaps the folder.
 */
export async function openInside(root: string, file: string): Promise<OpenFile | undefined> {
  let handle: FileHandle | undefined;
  try {
    const real = await realpath(file);
    if (!isInside(root, real)) return undefined;
    // Non-blocking: a FIFO left in the folder must not hang the request (no effect on regular files).
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (stats.isFile()) return { file, handle, stats };
  } catch (error) {
    await handle?.close().catch(() => {});
    if (isMissing(error)) return undefined;
    throw error;
  }
  await handle.close().catch(() => {});
  return undefined;
}

/** Host configuration files are read by the server, never served (in any spelling of their path). */
const HIDDEN = /^_(headers|redirects)(\.|\/|$)/i;
/** How far up the path the nearest 404 page is looked for: a request of 8,000 segments costs no more. */
const NOT_FOUND_SEARCH_DEPTH = 16;

/** The nearest `404.html` up from `folder` (relative to `root`, `/`-separated). */
async function nearestNotFound(root: string, folder: string): Promise<OpenFile | undefined> {
  let current = folder === '.' ? '' : folder.split('/').slice(0, NOT_FOUND_SEARCH_DEPTH).join('/');
  for (let level = 0; level <= NOT_FOUND_SEARCH_DEPTH; level += 1) {
    const opened = await openInside(root, path.join(root, current, '404.html'));
    if (opened || current === '') return opened;
    const parent = path.posix.dirname(current);
    current = parent === '.' ? '' : parent;
  }
  return undefined;
}

export interface Found {
  opened: OpenFile;
  status: 200 | 404;
  /** The real path of the site folder it was found in (its siblings are looked for there too). */
  siteRoot: string;
}

/**
 * Maps a site path (see `sitePathOf`) to a file the way common static hosts do: `/about` serves
 * `about`, else `about.html`, else `about/index.html`; `/about/` only `about/index.html`; anything
 * missing gets the nearest `404.html` up the path, with status 404. Undefined when there is not
 * even a root 404 page; 'no-site' when the folder itself is missing (a build swapping it in).
 */
export async function findStaticFile(root: string, sitePath: string): Promise<Found | undefined | 'no-site'> {
  let rootReal: string;
  try {
    rootReal = await realpath(root);
  } catch (error) {
    if (isMissing(error)) return 'no-site';
    throw error;
  }
  const relative = sitePath.slice(1);
  // A backslash is a separator on Windows only: refuse it rather than let it mean two things.
  if (!HIDDEN.test(relative) && !relative.includes('\\')) {
    const target = path.join(rootReal, relative);
    // The root itself (`/`, `/.`) has no `.html` sibling inside the site.
    const candidates =
      sitePath.endsWith('/') || relative === ''
        ? [path.join(target, 'index.html')]
        : [target, `${target}.html`, path.join(target, 'index.html')];
    for (const candidate of candidates) {
      const opened = await openInside(rootReal, candidate);
      if (opened) return { opened, status: 200, siteRoot: rootReal };
    }
  }
  const notFound = await nearestNotFound(rootReal, HIDDEN.test(relative) ? '' : path.posix.dirname(relative));
  return notFound && { opened: notFound, status: 404, siteRoot: rootReal };
}

/** The identity (inode) of the site folder, or undefined while it is missing. */
async function siteIdentity(root: string): Promise<string | undefined> {
  try {
    const stats = await stat(root);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

const SWAP_WAIT_MS = 2000;
const SWAP_POLL_MS = 10;

/**
 * `findStaticFile`, answered as it would be before or after a build swaps the folder in, never
 * from the moment between: a miss while the folder is missing or was replaced is looked up again.
 */
export async function findAcrossSwaps(root: string, sitePath: string): Promise<Found | undefined | 'no-site'> {
  const deadline = Date.now() + SWAP_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    const before = await siteIdentity(root);
    const found = before === undefined ? 'no-site' : await findStaticFile(root, sitePath);
    if (found !== 'no-site' && found?.status === 200) return found;
    const after = await siteIdentity(root);
    const settled = before !== undefined && after === before;
    if (settled || Date.now() > deadline || attempt >= 200) return found;
    if (found && found !== 'no-site') await found.opened.handle.close().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, SWAP_POLL_MS));
  }
}
