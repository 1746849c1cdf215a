/**
 * Collects changed paths and runs one rebuild for a burst of them: an editor that writes a file
 * several times in a row causes one rebuild. Changes that arrive while a rebuild runs wait for
 * the next one; the paths of a rebuild that failed are kept and tried again with the next change,
 * so a fix elsewhere cannot hide them.
 */
export interface WatchQueue {
  add(path: string): void;
  /** Resolves when nothing is pending or running. */
  idle(): Promise<void>;
  close(): void;
}

export function createWatchQueue(
  run: (paths: Set<string>) => Promise<boolean>,
  options: { debounceMs: number },
): WatchQueue {
  let pending = new Set<string>();
  let failed = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const waiters: Array<() => void> = [];

  const settle = () => {
    if (running || timer || pending.size > 0) return;
    for (const resolve of waiters.splice(0)) resolve();
  };

  const flush = () => {
    timer = undefined;
    if (running || closed) return;
    const batch = new Set([...failed, ...pending]);
    pending = new Set();
    running = run(batch)
      .then(
        (ok) => {
          failed = ok ? new Set() : batch;
        },
        () => {
          failed = batch;
        },
      )
      .finally(() => {
        running = undefined;
        if (pending.size > 0 && !closed) schedule();
        else settle();
      });
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(flush, options.debounceMs);
  };

  return {
    add(path) {
      if (closed) return;
      pending.add(path);
      if (!running) schedule();
    },
    idle() {
      return new Promise((resolve) => {
        waiters.push(resolve);
        settle();
      });
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
