// The output lock (proper-lockfile's, with the holder's pid in it): one holder at a time, a second
// one told who holds it, a lock left by a killed build taken over at once.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import { lockOutput } from '../src/output/output-lock.ts';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
const outDir = () => path.join((root ??= mkdtempSync(path.join(tmpdir(), 'ssg-lock-'))), 'dist');

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('the output lock', () => {
  it('holds the pid while held and leaves nothing once released', async () => {
    const dir = outDir();
    const release = await lockOutput(dir);
    expect(readFileSync(`${dir}.lock/pid`, 'utf8')).toBe(`${process.pid}\n`);
    release();
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('makes a second holder wait, naming the first, then give up naming the folder', async () => {
    const dir = outDir();
    const release = await lockOutput(dir);
    const waited: number[] = [];
    const failure = await lockOutput(dir, { timeoutMs: 200, onWait: (pid) => waited.push(pid) }).catch(
      (error: unknown) => error,
    );
    release();
    expect((failure as SsgError).code).toBe('OutDirLocked');
    expect((failure as SsgError).message).toContain(dir);
    expect(waited).toEqual([process.pid]);
  });

  it('takes over at once a lock whose process is gone', async () => {
    const dir = outDir();
    mkdirSync(`${dir}.lock`);
    writeFileSync(`${dir}.lock/pid`, `${await deadPid()}\n`);
    const started = Date.now();
    const release = await lockOutput(dir, { timeoutMs: 0 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readFileSync(`${dir}.lock/pid`, 'utf8')).toBe(`${process.pid}\n`);
    release();
  });
});
