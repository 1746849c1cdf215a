// Dev's watcher must tell of every file a save or a copy writes, however soon after the watcher
// is ready and however busy dev's thread is when it is written.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { watchSourceFolders } from '../src/dev/source-watcher.ts';

/** A folder and the files written into it, each after its own gap, from another thread. */
interface Written {
  folder: string;
  files: { name: string; gapMs: number }[];
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function makeRoot(folders: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ssg-watch-'));
  roots.push(root);
  for (const folder of folders) mkdirSync(path.join(root, folder), { recursive: true });
  return root;
}

/** Writes on a thread of its own, as an editor or a copy in another process does. */
function writeElsewhere(root: string, written: Written[]): Promise<void> {
  const code = `
    const { mkdirSync, writeFileSync } = require('node:fs');
    const path = require('node:path');
    const { root, written } = require('node:worker_threads').workerData;
    const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    for (const { folder, files } of written) {
      mkdirSync(path.join(root, folder), { recursive: true });
      for (const { name, gapMs } of files) {
        pause(gapMs);
        writeFileSync(path.join(root, folder, name), name);
      }
    }`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { root, written } });
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
}

/** Writes at once on this thread, before the watcher's next turn. */
function writeHere(root: string, written: Written[]): void {
  for (const { folder, files } of written) {
    mkdirSync(path.join(root, folder), { recursive: true });
    for (const { name } of files) writeFileSync(path.join(root, folder, name), name);
  }
}

/** Busy for `ms` on this thread, as a rebuild is. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The watcher on `root`: what it told of (from the root, in order), its thread busy `busyMs` each time. */
async function watching(root: string, busyMs = 0) {
  const told: string[] = [];
  const watcher = await watchSourceFolders(root, {
    change: (file) => {
      told.push(path.relative(root, file));
      busy(busyMs);
    },
    error: (error) => {
      throw error;
    },
  });
  return {
    told,
    /** Waits, at most 5 s, until each file was told of; those never told of. */
    async until(files: readonly string[]): Promise<string[]> {
      const missing = () => files.filter((file) => !told.includes(file));
      for (const deadline = Date.now() + 5_000; missing().length > 0 && Date.now() < deadline;) await pause(50);
      return missing();
    },
    close: () => watcher.close(),
  };
}

async function toldOf(
  root: string,
  written: Written[],
  options: { busyMs: number; here?: boolean },
): Promise<{ missing: string[] }> {
  const watcher = await watching(root, options.busyMs);
  try {
    if (options.here) writeHere(root, written);
    else await writeElsewhere(root, written);
    const expected = written.flatMap(({ folder, files }) => files.map(({ name }) => path.join(folder, name)));
    return { missing: await watcher.until(expected) };
  } finally {
    await watcher.close();
  }
}

describe('watchSourceFolders', () => {
  it('tells of a folder written just after it is ready, when a source folder does not exist yet', async () => {
    // Only content/: chokidar was once ready before its first listing when given a missing path.
    const root = makeRoot(['content/news']);
    const written = [
      { folder: 'content/news/first', files: [{ name: 'index.md', gapMs: 0 }] },
      { folder: 'content/news/second', files: [{ name: 'index.md', gapMs: 0 }] },
    ];
    expect(await toldOf(root, written, { busyMs: 0, here: true })).toEqual({ missing: [] });
  });

  it('tells of a source folder made after it is ready', async () => {
    const root = makeRoot(['content']);
    const written = [{ folder: 'templates', files: [{ name: 'document.html', gapMs: 0 }] }];
    expect(await toldOf(root, written, { busyMs: 0 })).toEqual({ missing: [] });
  });

  it('ignores what is not a source: dot files, backups, other top folders', async () => {
    const root = makeRoot(['content', 'site']);
    const watcher = await watching(root);
    try {
      await writeElsewhere(root, [
        { folder: 'dist', files: [{ name: 'index.html', gapMs: 0 }] },
        { folder: 'node_modules/x', files: [{ name: 'index.js', gapMs: 0 }] },
        { folder: 'content/.git', files: [{ name: 'HEAD', gapMs: 0 }] },
        {
          folder: 'site',
          files: [
            { name: 'page.tsx~', gapMs: 0 },
            { name: '.page.tsx.swp', gapMs: 0 },
          ],
        },
        { folder: 'content', files: [{ name: 'last.md', gapMs: 0 }] },
      ]);
      await watcher.until(['content/last.md']);
      await pause(1_300); // past the watcher's second look
      // A file may be told of twice (its creation, then its content landing): what matters is which.
      expect([...new Set(watcher.told)]).toEqual(['content/last.md']);
    } finally {
      await watcher.close();
    }
  });

  it("tells of a new file once, not again at its folder's second looks", async () => {
    const root = makeRoot(['content/news/first', 'site']);
    const watcher = await watching(root);
    try {
      // Written whole, then renamed into place (as editors save): its one event sees it complete.
      const folder = path.join(root, 'content/news/first');
      writeFileSync(path.join(folder, '.index.md.partial'), 'a new article');
      renameSync(path.join(folder, '.index.md.partial'), path.join(folder, 'index.md'));
      await pause(1_500); // past the watcher's second look
      expect(watcher.told).toEqual(['content/news/first/index.md']);
    } finally {
      await watcher.close();
    }
  });

  it('tells of a folder removed and made again with the same files', async () => {
    const root = makeRoot(['content/news/again']);
    writeFileSync(path.join(root, 'content/news/again/index.md'), 'one');
    const watcher = await watching(root);
    try {
      rmSync(path.join(root, 'content/news/again'), { recursive: true });
      await watcher.until(['content/news/again/index.md']);
      watcher.told.length = 0;
      await writeElsewhere(root, [{ folder: 'content/news/again', files: [{ name: 'index.md', gapMs: 0 }] }]);
      await watcher.until(['content/news/again/index.md']);
      expect(watcher.told).toContain('content/news/again/index.md');
    } finally {
      await watcher.close();
    }
  });

  it('tells of every file written into new folders at any pace while its thread is busy', async () => {
    const name = fc.constantFrom('index.md', 'index.mdx', 'note.tsx', 'photo.png', 'data.yaml');
    const folder = fc.record({
      folder: fc.constantFrom('content/news/a', 'content/news/b', 'content/news/a/deep', 'site/parts'),
      files: fc.uniqueArray(fc.record({ name, gapMs: fc.integer({ min: 0, max: 30 }) }), {
        minLength: 1,
        maxLength: 3,
        selector: (file) => file.name,
      }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(folder, { minLength: 1, maxLength: 3, selector: (written) => written.folder }),
        fc.integer({ min: 0, max: 40 }),
        async (written, busyMs) => {
          const root = makeRoot(['content/news', 'site', 'templates']);
          expect(await toldOf(root, written, { busyMs })).toEqual({ missing: [] });
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});
