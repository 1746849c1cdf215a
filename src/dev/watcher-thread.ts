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
/** Set (1) by the dev server while it rebuilds; cleared and notified when it is done. */
const rebuilding = new Int32Array((workerData as { rebuilding: SharedArrayBuffer }).rebuilding);
/** How long one wait lasts at most: a rebuild that runs long (a code change, an article stopped at its time budget) lets the reads creep on. */
const HOLD_MS = 1000;

const port = parentPort!;
const post = (message: WatcherMessage) => port.postMessage(message);
await watchSourceFolders((workerData as { root: string }).root, {
  change: (file) => post({ type: 'change', file }),
  error: (error) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  // chokidar reads a folder again after each change in it, a stat and a question per file: that
  // waits while the rebuild the change started runs (both would share the cores).
  beforeEach: () => void Atomics.wait(rebuilding, 0, 1, HOLD_MS),
});
post({ type: 'ready' });
