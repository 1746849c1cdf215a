import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A server process the tests start (nginx, wrangler), in its own process group so that closing it
 * also ends what it started (wrangler's workerd), with its output kept for the assertions.
 */
export class HostProcess {
  output = '';
  readonly exited: Promise<void>;
  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const collect = (chunk: Buffer) => (this.output += chunk);
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
  }

  static start(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): HostProcess {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    return new HostProcess(child);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once `url` answers at all; fails early when the process exits, or after `timeoutMs`. */
  async waitUntilAnswering(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; attempt < 10_000; attempt++) {
      if (!this.running) throw new Error(`${this.child.spawnfile} exited before answering:\n${this.output}`);
      try {
        await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
        return;
      } catch {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`${this.child.spawnfile} did not answer at ${url} within ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM to the whole group, SIGKILL when it has not exited after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running || this.child.pid === undefined) return;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-this.child.pid!, signal);
      } catch {
        // The group is already gone.
      }
    };
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    // workerd may outlive wrangler by a moment; make sure nothing of the group is left.
    signalGroup('SIGKILL');
  }
}
