/**
 * What a command registers with so that a stop by a signal (Ctrl-C, SIGTERM) removes what it made
 * and would otherwise leave behind: the CLI makes one per command, handles the signals and passes
 * it down (build options, the pipeline's run options, the output, the Markdown helpers). Code run
 * without one, as a library, registers nothing: its caller handles signals.
 */
export interface Interrupts {
  /** Registers a clean-up (run synchronously, so nothing else interleaves); the returned function unregisters it once the thing is gone. */
  on(cleanup: () => void): () => void;
  /** Says what a stop from now on leaves in place (say, once the new output is swapped in). */
  setOutcome(text: string): void;
}

/** For code run without a command: nothing to clean up on a signal it does not handle. */
export const noInterrupts: Interrupts = { on: () => () => {}, setOutcome: () => {} };

/** A command's registrar; the CLI runs `runAll` on a signal. What a SIGKILL leaves, the next build removes. */
export function createInterrupts(): Interrupts & { outcome(): string; runAll(): void } {
  const cleanups = new Set<() => void>();
  let outcome = 'nothing was swapped in';
  return {
    on(cleanup) {
      cleanups.add(cleanup);
      return () => cleanups.delete(cleanup);
    },
    setOutcome: (text) => void (outcome = text),
    outcome: () => outcome,
    /** Runs every registered clean-up, newest first; one failing does not stop the others. */
    runAll() {
      for (const cleanup of [...cleanups].reverse()) {
        try {
          cleanup();
        } catch {
          // Best effort: the next build removes what is left.
        }
      }
      cleanups.clear();
    },
  };
}
