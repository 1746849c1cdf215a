import { describe, expect, it } from 'vitest';
import { createWatchQueue } from '../src/dev/watch-queue.ts';

describe('createWatchQueue', () => {
  it('runs one rebuild for a burst of changes', async () => {
    const runs: string[][] = [];
    const queue = createWatchQueue(async (paths) => (runs.push([...paths].sort()), true), { debounceMs: 10 });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    await queue.idle();
    expect(runs).toEqual([['a', 'b']]);
  });

  it('collects changes that arrive during a rebuild into the next one', async () => {
    const runs: string[][] = [];
    let release!: () => void;
    const queue = createWatchQueue(
      async (paths) => {
        runs.push([...paths]);
        if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return true;
      },
      { debounceMs: 5 },
    );
    queue.add('first');
    await new Promise((resolve) => setTimeout(resolve, 20));
    queue.add('second');
    queue.add('third');
    release();
    await queue.idle();
    expect(runs).toEqual([['first'], ['second', 'third']]);
  });

  it('tries the paths of a failed rebuild again with the next change', async () => {
    const runs: string[][] = [];
    const queue = createWatchQueue(async (paths) => (runs.push([...paths].sort()), runs.length > 1), { debounceMs: 5 });
    queue.add('broken');
    await queue.idle();
    queue.add('other');
    await queue.idle();
    expect(runs).toEqual([['broken'], ['broken', 'other']]);
  });
});
