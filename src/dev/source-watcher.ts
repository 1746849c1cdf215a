// What dev mode watches and how: chokidar on the site's source folders, on dev's own thread as
// Eleventy and Vite run it, every file but dot files, editor backups and node_modules.
import { statSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** Dot files and folders, editor backups and swap files, Vim's write test file: never site input. */
const NOT_SOURCE = /(^|[/\\])\.|~$|\.sw[a-p]$|(^|[/\\])4913$/;

/** The folders below the site's root that hold what a build reads. */
const SOURCE_FOLDERS = ['content', 'site', 'templates'];

/** chokidar drops a second change of one file within this window instead of delaying it. */
const CHOKIDAR_CHANGE_THROTTLE_MS = 50;

/** Changes when a file's content may have: its modification time and size, or its absence. */
function fileSignature(file: string): string {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.mtimeMs}:${stats.size}` : 'missing';
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
    const relative = file.startsWith(prefix) ? file.slice(prefix.length) : path.relative(root, file);
    return NOT_SOURCE.test(relative) || relative.split(path.sep, 1)[0] === 'node_modules';
  };
  const watcher = watch(
    SOURCE_FOLDERS.map((dir) => path.join(root, dir)),
    { ignoreInitial: true, ignored },
  );
  // Each file as it was when last told of: a rebuild after that reads it as it was then, or newer.
  const told = new Map<string, string>();
  const tell = (file: string, signature: string) => {
    told.set(file, signature);
    on.change(file);
  };
  watcher.on('all', (_event, file) => {
    tell(file, fileSignature(file));
    // A second write within chokidar's throttle window has no event of its own: look once more
    // after the window, and tell of the file again if it changed since it was last told of (not
    // since this event: a later event may have told of that write already).
    setTimeout(() => {
      const now = fileSignature(file);
      if (!watcher.closed && now !== told.get(file)) tell(file, now);
    }, CHOKIDAR_CHANGE_THROTTLE_MS + 25).unref();
  });
  watcher.on('error', on.error);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return watcher;
}
