import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = path.join(repoRoot, 'bin', 'ssg.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would, in `cwd`, without colour. */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A throw-away copy of a fixture site (or of the real site) in a temporary folder. */
export async function copySite(
  source: string,
  ignore: string[] = ['dist', 'node_modules', '.cache'],
): Promise<TempSite> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ssg-test-'));
  await cp(source, dir, {
    recursive: true,
    filter: (file) => !ignore.some((name) => path.relative(source, file).split(path.sep)[0] === name),
  });
  return new TempSite(dir);
}

export class TempSite {
  constructor(readonly dir: string) {}
  file(relative: string): string {
    return path.join(this.dir, relative);
  }
  read(relative: string): Promise<string> {
    return readFile(this.file(relative), 'utf8');
  }
  async write(relative: string, contents: string | Uint8Array): Promise<void> {
    await mkdir(path.dirname(this.file(relative)), { recursive: true });
    await writeFile(this.file(relative), contents);
  }
  remove(relative: string): Promise<void> {
    return rm(this.file(relative), { recursive: true, force: true });
  }
  run(args: string[], env?: Record<string, string>): Promise<CliResult> {
    return runCli(args, this.dir, env);
  }
  dispose(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}
