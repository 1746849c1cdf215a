// The one line a long build redraws in place on a terminal: how far the Markdown conversion is.

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressLine {
  /** `done` of `total` articles converted. */
  update(done: number, total: number): void;
  /** Erases the line (before the summary is printed); nothing when none was drawn. */
  clear(): void;
}

export interface ProgressOptions {
  /** Nothing is drawn before the build has run this long: short builds print no progress. */
  delayMs?: number;
  /** At most one redraw per interval, however fast articles are converted. */
  intervalMs?: number;
  now?: () => number;
}

const ERASE_LINE = '\r\x1b[2K';

/** `Converting Markdown: 12 of 340 articles (3%)`, cut to the terminal's width. */
export function progressText(done: number, total: number, columns = 80): string {
  const percent = total > 0 ? Math.floor((Math.min(done, total) / total) * 100) : 100;
  const text = `Converting Markdown: ${done} of ${total} articles (${percent}%)`;
  return text.slice(0, Math.max(1, columns - 1));
}

/**
 * A progress line on `stream` when it is a terminal; on anything else (a pipe, a file, CI logs)
 * it writes nothing at all, so logs hold only the summary.
 */
export function progressLine(stream: ProgressStream, options: ProgressOptions = {}): ProgressLine {
  if (!stream.isTTY) return { update() {}, clear() {} };
  const now = options.now ?? (() => performance.now());
  const started = now();
  const delayMs = options.delayMs ?? 500;
  const intervalMs = options.intervalMs ?? 100;
  let drawnAt: number | undefined;
  return {
    update(done, total) {
      const time = now();
      if (time - started < delayMs) return;
      const finished = done >= total;
      if (drawnAt !== undefined && time - drawnAt < intervalMs && !finished) return;
      drawnAt = time;
      stream.write(`${ERASE_LINE}${progressText(done, total, stream.columns)}`);
    },
    clear() {
      if (drawnAt !== undefined) stream.write(ERASE_LINE);
      drawnAt = undefined;
    },
  };
}
