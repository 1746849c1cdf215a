/**
 * Clean-ups that must run when the process is stopped by a signal (Ctrl-C, SIGTERM): each removes
 * something a command made and would otherwise leave behind. They run synchronously, so nothing
 * else interleaves; what a SIGKILL leaves, the next build removes.
 */
const cleanups = new Set<() => void>();

/** What a stop leaves, as the stop's message says it: set by whoever changes it. */
let outcome = 'nothing was swapped in';

/** Says what a stop from now on leaves in place (say, once the new output is swapped in). */
export function setInterruptOutcome(text: string): void {
  outcome = text;
}

export function interruptOutcome(): string {
  return outcome;
}

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
