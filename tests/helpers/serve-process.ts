import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { cliPath, repoRoot } from './project.ts';

/**
 * Gives a test site the real site's API routes (site/api/ and the contact code they use) when it
 * has none, so `ssg serve` there answers /api/contact as it does for the real site.
 */
export function withSiteApi(dir: string): void {
  if (existsSync(path.join(dir, 'site', 'api'))) return;
  for (const folder of ['api', 'contact']) {
    cpSync(path.join(repoRoot, 'site', folder), path.join(dir, 'site', folder), { recursive: true });
  }
}

/** `ssg serve` as a process, with its output collected and its address known. */
export class ServeProcess {
  output = '';
  url = '';
  readonly exited: Promise<number | null>;
  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  }

  static start(cwd: string, env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
    withSiteApi(cwd);
    const child = spawn(process.execPath, [cliPath, 'serve', ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const serve = new ServeProcess(child);
    const collect = (chunk: Buffer) => (serve.output += chunk);
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', () => {
        const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(serve.output);
        if (match && !serve.url) {
          serve.url = match[1]!;
          resolve(serve);
        }
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${serve.output}`)));
    });
  }

  async waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
