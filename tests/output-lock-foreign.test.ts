// A `dist.lock` folder the build did not make is never deleted with what it holds.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutput } from '../src/output/output-lock.ts';

describe('a dist.lock folder that holds files ssg did not write', () => {
  it('is not deleted with its files when taken for stale', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ssg-attack-lock-'));
    try {
      const lock = path.join(dir, 'dist.lock');
      mkdirSync(path.join(lock, 'sub'), { recursive: true });
      writeFileSync(path.join(lock, 'notes.txt'), 'mine');
      writeFileSync(path.join(lock, 'sub', 'keep.txt'), 'mine too');
      const hourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(lock, hourAgo, hourAgo);
      let release: (() => void) | undefined;
      try {
        release = await lockOutput(path.join(dir, 'dist'), { timeoutMs: 2_000 });
      } catch {
        // Refusing, naming the folder, is fine too.
      }
      release?.();
      expect(existsSync(path.join(lock, 'notes.txt'))).toBe(true);
      expect(existsSync(path.join(lock, 'sub', 'keep.txt'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
