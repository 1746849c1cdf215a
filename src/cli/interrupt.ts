/**
 * Clean-ups that must run when the process is stopped by a signal (Ctrl-C, SIGTERM): each removes
 * something a command made and would otherwise leave behind. They run synchronously, so nothing
 * else interleaves; what a SIGKILL leaves, the next build removes.
 */
const cleanups = new Set<() => void>();

/** Registers a clean-up; the returned function unregisters it once the thing is gone. */
export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered clean-up, newest first; one failing does not stop the others. */
export function runInterruptCleanups(): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort: the next build removes what is left.
    }
  }
  cleanups.clear();
}
