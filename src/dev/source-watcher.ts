// What dev mode watches and how: chokidar on the site's source folders, on dev's own thread as
// Eleventy and Vite run it, every file but dot files, editor backups and node_modules.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** Dot files and folders, editor backups and swap files, Vim's write test file: never site input. */
const NOT_SOURCE = /(^|[/\\])\.|~$|\.sw[a-p]$|(^|[/\\])4913$/;

/** The folders below the site's root that hold what a build reads. */
const SOURCE_FOLDERS = ['content', 'site', 'templates'];

/** chokidar drops a second change of one file within this window instead of delaying it. */
const CHOKIDAR_CHANGE_THROTTLE_MS = 50;

/** chokidar lists a folder at most once in this window. */
const CHOKIDAR_READDIR_THROTTLE_MS = 1000;

/** When a folder is listed again after an event in it: soon, and once chokidar's own listing is surely done. */
const FOLDER_LOOKS_MS = [CHOKIDAR_CHANGE_THROTTLE_MS + 50, CHOKIDAR_READDIR_THROTTLE_MS + 100];

/** Changes when a file's content may have: its modification time and size, or its absence. */
function fileSignature(file: string): string {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.mtimeMs}:${stats.size}` : 'missing';
}

function listFolder(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return []; // gone since the event: chokidar tells of the removal
  }
}

/**
 * Watches the site's sources, telling `onChange` of each changed, added or removed path; resolves
 * once ready.
 */
export async function watchSourceFolders(
  root: string,
  on: { change: (file: string) => void; error: (error: unknown) => void },
): Promise<FSWatcher> {
  // chokidar asks about every entry of a folder on each change in it, so this stays cheap (no path.relative).
  const prefix = root + path.sep;
  const ignored = (file: string) => {
    if (file === root) return false;
    const relative = file.startsWith(prefix) ? file.slice(prefix.length) : path.relative(root, file);
    return !SOURCE_FOLDERS.includes(relative.split(path.sep, 1)[0]!) || NOT_SOURCE.test(relative);
  };
  // The root, not the source folders themselves: chokidar is ready too early when a path it is
  // given does not exist, and then takes what is written just after for its first listing.
  const watcher = watch(root, { ignoreInitial: true, ignored });
  // Each file as it was when last told of: a rebuild after that reads it as it was then, or newer.
  const told = new Map<string, string>();
  const tell = (file: string, signature: string) => {
    told.set(file, signature);
    on.change(file);
  };
  // Every path told of (or there from the start): chokidar may hold a file it never told of (one
  // written while it listed a folder it was asked to watch), so what it holds is no guide.
  const seen = new Set<string>();
  let ready = false;
  const findMissed = missedFileFinder(watcher, ignored, seen, (file) => tell(file, fileSignature(file)));
  watcher.on('all', (event, file) => {
    // chokidar tells of each file of a removed folder it held, one by one.
    if (event === 'unlink' || event === 'unlinkDir') seen.delete(file);
    else seen.add(file);
    tell(file, fileSignature(file));
    if (event === 'addDir' || event === 'unlinkDir') {
      // A new folder is listed whole; `seen` is complete only once chokidar's first listing is.
      if (event === 'addDir' && ready) findMissed(file, true);
      return;
    }
    // A second write within chokidar's throttle window has no event of its own: look once more
    // after the window, and tell of the file again if it changed since it was last told of (not
    // since this event: a later event may have told of that write already).
    setTimeout(() => {
      const now = fileSignature(file);
      if (!watcher.closed && now !== told.get(file)) tell(file, now);
    }, CHOKIDAR_CHANGE_THROTTLE_MS + 25).unref();
    if (ready) findMissed(path.dirname(file), false);
  });
  watcher.on('error', on.error);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  for (const [folder, names] of Object.entries(watcher.getWatched()))
    for (const name of names) seen.add(path.join(folder, name));
  ready = true;
  return watcher;
}

/**
 * chokidar lists a new folder before it watches it, so what is written into it in between has no
 * event and is never watched; and a folder it is asked to watch is listed without events. After
 * an event in a folder, list it again twice (a new folder with all it holds): soon, then once
 * chokidar's own listing is surely done; tell of each path not `seen` and have chokidar watch it
 * (a folder found so is listed whole at the next look too). Folders wait in one batch for each
 * look, so a burst costs one pass.
 */
function missedFileFinder(
  watcher: FSWatcher,
  ignored: (file: string) => boolean,
  seen: Set<string>,
  tell: (file: string) => void,
): (folder: string, whole: boolean) => void {
  // Each batch: the folders waiting for that look, and whether each is new (to list all it holds).
  const batches = FOLDER_LOOKS_MS.map(() => new Map<string, boolean>());
  /** Lists a folder; `later` hears of each folder it found missed, to be listed whole again. */
  const look = (folder: string, whole: boolean, later: (folder: string) => unknown) => {
    for (const entry of listFolder(folder)) {
      const file = path.join(folder, entry.name);
      if (ignored(file) || !(entry.isFile() || entry.isDirectory())) continue;
      const missed = !seen.has(file);
      if (missed) {
        seen.add(file);
        watcher.add(file);
      }
      if (!entry.isDirectory()) {
        if (missed) tell(file);
      } else if (missed || whole) {
        if (missed) later(file);
        look(file, true, later);
      }
    }
  };
  const schedule = (index: number) => {
    setTimeout(
      () => {
        const folders = [...batches[index]!];
        batches[index]!.clear();
        if (watcher.closed) return;
        const last = index + 1 >= batches.length;
        const later = (found: string) => last || wait(index + 1, found, true);
        for (const [folder, whole] of folders) {
          look(folder, whole, later);
          if (!last) wait(index + 1, folder, whole);
        }
      },
      FOLDER_LOOKS_MS[index]! - (FOLDER_LOOKS_MS[index - 1] ?? 0),
    ).unref();
  };
  const wait = (index: number, folder: string, whole: boolean) => {
    const batch = batches[index]!;
    if (batch.size === 0) schedule(index);
    batch.set(folder, batch.get(folder) || whole);
  };
  return (folder, whole) => wait(0, folder, whole);
}
