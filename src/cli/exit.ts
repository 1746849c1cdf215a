// How a command ends: its failure reported once with the exit code it sets, a signal's clean-up,
// and the watchdog that ends a finished build something still holds open.
import { formatAnyError, isUsageError } from '../errors/errors.ts';
import { createInterrupts } from '../base/interrupt.ts';
import { paint, useColor } from './terminal.ts';

export const USAGE_EXIT = 2;
const FAILURE_EXIT = 1;

/** What failed, as the first line of the report: the command's own words. */
export type FailureHeading =
  'Build failed' | 'Dev server failed' | 'Preview failed' | 'Serve failed' | 'Inbox failed' | 'Init failed' | 'Failed';

export function reportFailure(error: unknown, verbose: boolean, heading: FailureHeading): void {
  const colors = paint(useColor(process.stderr));
  const text = formatAnyError(error, { verbose });
  process.stderr.write(`${colors.red(heading)}\n${text}\n`);
  process.exitCode = isUsageError(error) ? USAGE_EXIT : FAILURE_EXIT;
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * A build (or init) stopped by a signal removes what it made (staging folder, lock, helper
 * processes: registered with the registrar returned, which the command passes down) and exits
 * as a process killed by that signal would.
 */
export function cleanUpOnSignal(what = 'Build'): ReturnType<typeof createInterrupts> {
  const interrupts = createInterrupts();
  for (const signal of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) {
    process.once(signal, () => {
      process.stderr.write(`${what} stopped (${signal}); ${interrupts.outcome()}.\n`);
      interrupts.runAll();
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
  return interrupts;
}

/** How long dev and preview may take to close on a signal before they exit all the same. */
const CLOSE_DEADLINE_MS = 1500;

/**
 * On Ctrl-C or SIGTERM: close once, then exit. Dev and preview (`drain: false`) exit as a process
 * ended by that signal would (130, 143), within CLOSE_DEADLINE_MS whatever closing does. The
 * production server (`drain: true`) finishes the requests in flight, as its orchestrator expects,
 * and exits 0 (1 if closing failed); a second signal while it drains ends it at once (130, 143).
 */
export function stopOnSignal(
  close: () => Promise<void>,
  verbose: boolean,
  heading: FailureHeading,
  options: { drain: boolean; announce?: (signal: string) => void },
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    }
    stopping = true;
    options.announce?.(signal);
    const code = options.drain ? 0 : (SIGNAL_EXIT[signal] ?? 1);
    if (!options.drain) setTimeout(() => process.exit(code), CLOSE_DEADLINE_MS).unref();
    close().then(
      () => process.exit(code),
      (error: unknown) => {
        reportFailure(error, verbose, heading);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** How long a finished build may take to exit on its own before the watchdog ends it. */
const EXIT_DEADLINE_MS = 1000;

const RESOURCE_NAMES: Record<string, string> = {
  ProcessWrap: 'child process',
  PipeWrap: 'pipe',
  TCPWrap: 'socket',
  TCPSocketWrap: 'socket',
  Timeout: 'timer',
  FSReqCallback: 'file operation',
  FSReqPromise: 'file operation',
  Immediate: 'immediate',
};

/** What still holds the event loop, as `2 child processes, 4 pipes`. */
function stillAlive(): string {
  const counts = new Map<string, number>();
  for (const resource of process.getActiveResourcesInfo()) {
    if (resource === 'TTYWrap') continue;
    const name = RESOURCE_NAMES[resource] ?? resource;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .map(([name, count]) => `${count} ${name}${count > 1 ? (name.endsWith('s') ? 'es' : 's') : ''}`)
    .join(', ');
}

/**
 * A build that has said its last word exits: nothing it started may keep the process alive. If
 * something still does a second later (a bug), this says what, ends what the build registered
 * (its helpers) and exits with the build's code, so CI never waits for its own time-out.
 */
export function exitSoonAfter(interrupts: ReturnType<typeof createInterrupts>): void {
  setTimeout(() => {
    process.stderr.write(
      `warning: the build ended but ${stillAlive() || 'something'} still held the process ${EXIT_DEADLINE_MS / 1000} s later; exiting all the same. This is a bug in ssg: please report it with this line.\n`,
    );
    interrupts.runAll();
    process.exit(process.exitCode ?? 0);
  }, EXIT_DEADLINE_MS).unref();
}
