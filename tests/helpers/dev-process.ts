import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { cliPath } from './project.ts';

export interface DevEvent {
  event: string;
  data: unknown;
}

/** `ssg dev` as a process, with its output collected and its address known. */
export class DevProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private constructor(
    readonly child: ChildProcess,
    public url = '',
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** `cli` is the CLI to run: this repository's by default, or an installed package's `ssg`. */
  static start(cwd: string, args: string[] = [], cli = cliPath): Promise<DevProcess> {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.SSG_DEV_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SSG_DEV_PROF}`] : []),
        cli,
        'dev',
        '--port',
        '0',
        ...args,
      ],
      {
        cwd,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const dev = new DevProcess(child);
    child.stdout!.on('data', (chunk) => (dev.stdout += chunk));
    child.stderr!.on('data', (chunk) => (dev.stderr += chunk));
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(dev.stdout);
        if (match) {
          dev.url = match[1]!;
          resolve(dev);
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => reject(new Error(`dev exited with ${code}:\n${dev.stdout}\n${dev.stderr}`)));
    });
  }

  /** Resolves once stdout has a line matching `pattern` after the current end of output. */
  async waitForOutput(pattern: RegExp, from = 0, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = pattern.exec(this.stdout.slice(from) + this.stderr.slice(0));
      if (match) return match[0];
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`timed out waiting for ${pattern}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
  }

  /**
   * Listens to the server-sent events the browser client receives. `next` waits for the next
   * event of a name (and matching `accept`): under load a save may be rebuilt twice, so a test
   * names what it expects rather than taking whatever comes next.
   */
  async events(): Promise<{
    received: DevEvent[];
    next(name: string, accept?: (data: any) => boolean, timeoutMs?: number): Promise<DevEvent>;
    /** Waits until no event has come for a moment, and forgets those that came before. */
    settle(quietMs?: number): Promise<void>;
    close(): void;
  }> {
    const controller = new AbortController();
    const response = await fetch(`${this.url}/__ssg/events`, { signal: controller.signal });
    const received: DevEvent[] = [];
    let seen = 0;
    /** Told of each event as it arrives: `next` answers at once, not at its next look. */
    const arrivals = new Set<() => void>();
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (event && data) received.push({ event, data: JSON.parse(data) });
            for (const arrived of arrivals) arrived();
          }
        }
      } catch {
        // closed
      }
    })();
    return {
      received,
      next(name, accept = () => true, timeoutMs = 10_000) {
        return new Promise<DevEvent>((resolve, reject) => {
          const look = () => {
            let index: number;
            try {
              index = received.findIndex((event, at) => at >= seen && event.event === name && accept(event.data));
            } catch (error) {
              done();
              reject(error);
              return true;
            }
            if (index === -1) return false;
            seen = index + 1;
            done();
            resolve(received[index]!);
            return true;
          };
          const timer = setTimeout(() => {
            done();
            reject(new Error(`no "${name}" event; received ${JSON.stringify(received)}`));
          }, timeoutMs);
          const done = () => {
            clearTimeout(timer);
            arrivals.delete(look);
          };
          if (!look()) arrivals.add(look);
        });
      },
      async settle(quietMs = 400) {
        // Lets a rebuild still running from an earlier change finish, so that the next `next`
        // sees only what the caller's own change causes.
        let count = -1;
        while (count !== received.length) {
          count = received.length;
          await new Promise((resolve) => setTimeout(resolve, quietMs));
        }
        seen = received.length;
      },
      close: () => controller.abort(),
    };
  }

  /** Appends `text` to a file of the site and waits until open pages are told to reload. */
  async appendAndReload(file: string, text: string): Promise<void> {
    const events = await this.events();
    try {
      await appendFile(file, text);
      await events.next('reload');
    } finally {
      events.close();
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }
}
