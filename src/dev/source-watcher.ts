// What dev mode watches and how: chokidar on the site's source folders, every file but dot files,
// editor backups and node_modules. It runs on a thread of its own (watcher-thread.ts): chokidar
// reads a whole folder again, a stat per file, on every change in it (about 28 ms of work per save
// in a folder of 1,000 articles); on the main thread that work was done between the rebuild's
// steps, and on a thread of its own it shared the cores with the rebuild. It now waits for it.
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** Dot files and folders, editor backups and swap files, Vim's write test file: never site input. */
export const NOT_SOURCE = /(^|[/\\])\.|~$|\.sw[a-p]$|(^|[/\\])4913$/;

/** The folders below the site's root that hold what a build reads. */
export const SOURCE_FOLDERS = ['content', 'site', 'templates'];

/**
 * Watches the site's sources, telling `onChange` of each changed, added or removed path; resolves
 * once ready. `beforeEach` runs before chokidar asks about each path (it may wait: the watcher
 * thread holds its folder reads there while a rebuild runs).
 */
export async function watchSourceFolders(root: string, on: { change: (file: string) => void; error: (error: unknown) => void; beforeEach?: () => void }): Promise<FSWatcher> {
  // chokidar asks about every entry of a folder each time something in it changes: 1,000 times
  // per save in a folder of 1,000 articles, so this stays cheap (no path.relative).
  const prefix = root + path.sep;
  const ignored = (file: string) => {
    on.beforeEach?.();
    const relative = file.startsWith(prefix) ? file.slice(prefix.length) : path.relative(root, file);
    return NOT_SOURCE.test(relative) || relative.split(path.sep, 1)[0] === 'node_modules';
  };
  const watcher = watch(
    SOURCE_FOLDERS.map((dir) => path.join(root, dir)),
    { ignoreInitial: true, ignored },
  );
  watcher.on('all', (_event, file) => on.change(file));
  watcher.on('error', on.error);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return watcher;
}
