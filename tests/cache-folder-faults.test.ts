// What stands where the cache folder goes: whatever it is, the build stops with CacheUnusable
// naming the folder, never an unexpected internal error.
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeAbandonedServerModules } from '../src/bundle/bundle-server.ts';
import { openCacheFolder } from '../src/cache/store.ts';
import { SsgError } from '../src/errors/errors.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Ways a careless user or a sync tool leaves something other than a folder at `.cache`. */
const obstructions: Record<string, (cache: string, root: string) => void> = {
  'a file': (cache) => writeFileSync(cache, 'junk'),
  'a link that points nowhere': (cache) => symlinkSync(path.join(path.dirname(cache), 'gone'), cache),
  'a link to a file': (cache, root) => {
    writeFileSync(path.join(root, 'target'), 'x');
    symlinkSync(path.join(root, 'target'), cache);
  },
  'a loop of links': (cache, root) => {
    symlinkSync(cache, path.join(root, 'other'));
    symlinkSync(path.join(root, 'other'), cache);
  },
  'a link to a link that points nowhere': (cache, root) => {
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'middle'));
    symlinkSync(path.join(root, 'middle'), cache);
  },
};

describe('something other than a folder where .cache goes', () => {
  it('each obstruction, at .cache or .cache/ssg: CacheUnusable naming the folder shown', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(obstructions)), fc.boolean(), (kind, deeper) => {
        const root = mkdtempSync(path.join(tmpdir(), 'ssg-cache-folder-'));
        made.push(root);
        const cache = path.join(root, '.cache');
        if (deeper) mkdirSync(cache);
        const blocked = deeper ? path.join(cache, 'ssg') : cache;
        obstructions[kind]!(blocked, root);
        let error: unknown;
        try {
          openCacheFolder(path.join(cache, 'ssg'), '.cache/ssg');
        } catch (caught) {
          error = caught;
        }
        expect(error, kind).toBeInstanceOf(SsgError);
        expect((error as SsgError).code).toBe('CacheUnusable');
        expect((error as SsgError).file).toBe('.cache/ssg');
      }),
      { numRuns: 30 },
    );
  });
});

describe('server modules a killed build left in the cache', () => {
  it('those of processes that are gone are removed; a running process’s and other files stay', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ssg-server-modules-'));
    made.push(dir);
    // A pid far above any pid_max in use: no such process.
    const gone = ['server-99999999-1.mjs', 'server-99999998-3.mjs'];
    const kept = [
      `server-${process.pid}-1.mjs`,
      `server-${process.ppid}-2.mjs`,
      'server-x-1.mjs',
      'markdown.json',
      'server-99999999-1.mjs.map',
    ];
    for (const name of [...gone, ...kept]) writeFileSync(path.join(dir, name), 'x');
    await removeAbandonedServerModules(dir);
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
  });
});
