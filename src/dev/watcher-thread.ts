// The file watcher's thread (a worker of the dev process): watches the site's sources and posts
// each changed path to the dev server's thread, which rebuilds. The dev server ends it (terminate).
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { watchSourceFolders } from './source-watcher.ts';

/** What the thread tells the dev server. */
export type WatcherMessage = { type: 'ready' } | { type: 'change'; file: string } | { type: 'error'; message: string };

// The lowest priority, for this thread alone: on Linux a thread has its own nice value (elsewhere
// it would be the whole dev server's). A save's event needs next to no work and comes while the
// cores are idle; the folder chokidar then reads again (a stat per file) waits while the rebuild
// and the Markdown helper use the cores.
if (process.platform === 'linux') {
  try {
    setPriority(19);
  } catch {
    // Not allowed here: it runs at the dev server's priority.
  }
}
const port = parentPort!;
const post = (message: WatcherMessage) => port.postMessage(message);
await watchSourceFolders(
  (workerData as { root: string }).root,
  (file) => post({ type: 'change', file }),
  (error) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
);
post({ type: 'ready' });
