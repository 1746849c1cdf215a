import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libProblem } from '../bin/lib-check.js';
import { sourceFingerprint } from '../src/base/fingerprint.ts';
import { importedPackages, packageVersions } from '../src/content/package-versions.ts';
import {
  entryHeader,
  openEntry,
  pruneEntries,
  readEntry,
  readEntrySync,
  removeAbandonedTemporaries,
  writeEntryAsync,
  writeEntrySync,
} from '../src/cache/store.ts';
import { corruptions, damage } from './helpers/corrupt.ts';
import { repoRoot } from './helpers/project.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ssg-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
const fresh = () => path.join(dir, `case-${++counter}`, 'entry.bin');

describe('cache entries', () => {
  it('give back exactly what was written, for any payload', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (payload) => {
        const file = fresh();
        writeEntrySync(file, payload);
        expect(readEntrySync(file)).toEqual(Buffer.from(payload));
        // Only the entry is left: no temporary file beside it.
        expect(readdirSync(path.dirname(file))).toEqual(['entry.bin']);
      }),
      { numRuns: 60 },
    );
  });

  it('read as absent after any damage: truncated, extended, flipped, emptied, replaced', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 2048 }), corruptions(), (payload, corruption) => {
        const file = fresh();
        writeEntrySync(file, payload);
        damage(file, corruption);
        const read = readEntrySync(file);
        // A corruption that happens to leave the very same bytes is no corruption.
        if (
          existsSync(file) &&
          statSync(file).isFile() &&
          readFileSync(file).equals(Buffer.concat([entryHeader(payload), payload]))
        ) {
          expect(read).toEqual(Buffer.from(payload));
        } else {
          expect(read).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('open only whole entries from random bytes (no exception for any input)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 120 }), (bytes, text) => {
        expect(openEntry(bytes)).toBeUndefined();
        expect(openEntry(Buffer.from(`ssg-cache/1 ${text}`))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a missing file and a folder in its place read as absent, also asynchronously', async () => {
    const file = fresh();
    expect(readEntrySync(file)).toBeUndefined();
    expect(await readEntry(file)).toBeUndefined();
    mkdirSync(file, { recursive: true });
    expect(readEntrySync(file)).toBeUndefined();
    expect(await readEntry(file)).toBeUndefined();
  });

  it('an empty folder where the entry goes is replaced; one with something in it is kept and the write fails', () => {
    const file = fresh();
    mkdirSync(file, { recursive: true });
    writeEntrySync(file, Buffer.from('kept'));
    expect(readEntrySync(file)?.toString()).toBe('kept');

    const other = fresh();
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'someone-elses.txt'), 'mine');
    expect(() => writeEntrySync(other, Buffer.from('x'))).toThrow();
    expect(readFileSync(path.join(other, 'someone-elses.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(path.dirname(other))).toEqual(['entry.bin']);
  });

  it('a write that fails leaves what was there and no temporary file', () => {
    // A file where the entry's folder should be (works for root too, unlike a read-only folder).
    const blocker = path.join(dir, `blocked-${++counter}`);
    writeFileSync(blocker, 'a file, not a folder');
    expect(() => writeEntrySync(path.join(blocker, 'entry.bin'), Buffer.from('x'))).toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('a file, not a folder');

    // A failure after the temporary file was written: the rename onto a full folder.
    const file = fresh();
    mkdirSync(file, { recursive: true });
    writeFileSync(path.join(file, 'inside'), '');
    expect(() => writeEntrySync(file, Buffer.from('x'))).toThrow();
    expect(readdirSync(path.dirname(file))).toEqual(['entry.bin']);
  });
});

describe('entries written asynchronously (writeEntryAsync)', () => {
  it('give back what was written, for many entries into one folder, also after the folder is deleted between writes', async () => {
    const folder = path.join(dir, `async-${++counter}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 2000 }), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        async (payloads, deleteFolder) => {
          if (deleteFolder) await rm(folder, { recursive: true, force: true });
          await Promise.all(
            payloads.map((payload, index) => writeEntryAsync(path.join(folder, `${index}.bin`), payload)),
          );
          payloads.forEach((payload, index) =>
            expect(readEntrySync(path.join(folder, `${index}.bin`))?.equals(Buffer.from(payload))).toBe(true),
          );
          expect(readdirSync(folder).filter((name) => name.includes('.tmp-'))).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('an empty folder where the entry goes is replaced; one with something in it is kept, the write rejects and leaves no temporary file', async () => {
    const file = fresh();
    mkdirSync(file, { recursive: true });
    await writeEntryAsync(file, Buffer.from('kept'));
    expect(readEntrySync(file)?.toString()).toBe('kept');

    const other = fresh();
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'someone-elses.txt'), 'mine');
    await expect(writeEntryAsync(other, Buffer.from('x'))).rejects.toThrow();
    expect(readFileSync(path.join(other, 'someone-elses.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(path.dirname(other))).toEqual(['entry.bin']);

    // A file where the entry's folder should be: rejected, the file kept.
    const blocker = path.join(dir, `blocked-${++counter}`);
    writeFileSync(blocker, 'a file, not a folder');
    await expect(writeEntryAsync(path.join(blocker, 'entry.bin'), Buffer.from('x'))).rejects.toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('a file, not a folder');
  });
});

describe('writers in several processes at once', () => {
  it('readers only ever see a whole entry or none, while four processes rewrite it', async () => {
    const file = fresh();
    const storeUrl = pathToFileURL(path.join(repoRoot, 'src', 'cache', 'store.ts')).href;
    // Each writer writes payloads of its own, different lengths, 200 times.
    const script = `
      const { writeEntrySync } = await import(${JSON.stringify(storeUrl)});
      const id = Number(process.argv[1]);
      for (let i = 0; i < 200; i++) writeEntrySync(${JSON.stringify(file)}, Buffer.alloc(1000 + id * 7919 + i, id));
    `;
    const writers = [1, 2, 3, 4].map(
      (id) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, String(id)], {
            stdio: 'inherit',
            cwd: repoRoot,
          });
          child.on('error', reject);
          child.on('exit', resolve);
        }),
    );
    let running = true;
    const finished = Promise.all(writers).finally(() => (running = false));
    let seen = 0;
    // Bounded: the writers end on their own; 100,000 reads at most.
    for (let reads = 0; running && reads < 100_000; reads++) {
      const payload = readEntrySync(file);
      if (payload) {
        seen++;
        const id = payload[0]!;
        expect(payload.every((byte) => byte === id)).toBe(true);
        expect(payload.length - 1000 - id * 7919 >= 0).toBe(true);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await finished).toEqual([0, 0, 0, 0]);
    expect(readEntrySync(file)).toBeDefined();
    expect(seen).toBeGreaterThan(0);
    expect(readdirSync(path.dirname(file))).toEqual(['entry.bin']);
  }, 60_000);
});

describe('tidying a cache folder', () => {
  it('removes temporary files of writers that died, never those of live ones or other names', () => {
    const folder = path.join(dir, `tidy-${++counter}`);
    mkdirSync(folder);
    const dead = 2 ** 22 + 12345; // above Linux's pid_max default: no such process
    const names = {
      deadWriter: `entry.bin.tmp-${dead}-abcd1234`,
      liveWriter: `entry.bin.tmp-${process.pid}-abcd1234`,
      staleLiveWriter: `other.bin.tmp-${process.ppid}-00ff00ff`,
      notOurs: 'entry.bin.tmp-notes',
      entry: 'entry.bin',
    };
    for (const name of Object.values(names)) writeFileSync(path.join(folder, name), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(path.join(folder, names.staleLiveWriter), twoDaysAgo, twoDaysAgo);
    expect(removeAbandonedTemporaries(folder)).toBe(2);
    expect(readdirSync(folder).sort()).toEqual([names.entry, names.notOurs, names.liveWriter].sort());
    expect(removeAbandonedTemporaries(path.join(folder, 'missing'))).toBe(0);
  });

  it('prunes entries this build did not use, only those it names and only older than the build', () => {
    const folder = path.join(dir, `prune-${++counter}`);
    mkdirSync(folder);
    const since = Date.now() - 60_000;
    const old = new Date(since - 60_000);
    for (const name of ['a.br', 'b.br', 'c.br', 'notes.txt']) {
      writeFileSync(path.join(folder, name), 'x');
      utimesSync(path.join(folder, name), old, old);
    }
    writeFileSync(path.join(folder, 'new.br'), 'made by a build running beside this one');
    mkdirSync(path.join(folder, 'd.br'));
    const removed = pruneEntries(folder, { used: new Set(['a.br']), isEntry: (name) => name.endsWith('.br'), since });
    expect(removed).toBe(2);
    expect(readdirSync(folder).sort()).toEqual(['a.br', 'd.br', 'new.br', 'notes.txt']);
  });
});

describe('package versions in cache keys', () => {
  it('names the packages a source imports, scoped ones whole, no built-ins or relative paths', () => {
    const source = `import a from 'unified';\nimport { b } from "@scope/pkg/sub";\nimport c from 'node:fs';\nimport d from './local.ts';\nimport type { E } from 'remark-parse';`;
    expect(importedPackages(source)).toEqual(['@scope/pkg', 'remark-parse', 'unified']);
  });

  it('follows dependencies through the npm install record, and reads package.json without one', async () => {
    const modules = path.join(dir, `node_modules-${++counter}`);
    mkdirSync(modules, { recursive: true });
    const lock = {
      packages: {
        'node_modules/top': { version: '1.0.0', dependencies: { mid: '^2' } },
        'node_modules/mid': { version: '2.1.0', dependencies: { leaf: '^3', top: '^1' } },
        'node_modules/leaf': { version: '3.0.1' },
        'node_modules/unrelated': { version: '9.9.9' },
      },
    };
    writeFileSync(path.join(modules, '.package-lock.json'), JSON.stringify(lock));
    expect(packageVersions(modules, ['top', 'gone'])).toEqual({
      gone: 'missing',
      leaf: '3.0.1',
      mid: '2.1.0',
      top: '1.0.0',
    });

    lock.packages['node_modules/leaf'].version = '3.0.2';
    writeFileSync(path.join(modules, '.package-lock.json'), JSON.stringify(lock));
    expect(packageVersions(modules, ['top']).leaf).toBe('3.0.2');

    await rm(path.join(modules, '.package-lock.json'));
    mkdirSync(path.join(modules, 'top'));
    writeFileSync(path.join(modules, 'top', 'package.json'), '{"version":"1.2.3"}');
    expect(packageVersions(modules, ['top'])).toEqual({ top: '1.2.3' });
  });

  it('a damaged install record gives versions all the same (never an exception)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (garbage) => {
        const modules = path.join(dir, `node_modules-${++counter}`);
        mkdirSync(modules, { recursive: true });
        writeFileSync(path.join(modules, '.package-lock.json'), garbage);
        expect(packageVersions(modules, ['x'])).toEqual({ x: 'missing' });
      }),
      { numRuns: 30 },
    );
  });
});

describe("the generator's fingerprint (kept by the record of an unchanged build)", () => {
  it('changes with a source file and with the installed packages, and only then', () => {
    const root = path.join(dir, `generator-${++counter}`);
    mkdirSync(path.join(root, 'src', 'nested'), { recursive: true });
    mkdirSync(path.join(root, 'node_modules'));
    writeFileSync(path.join(root, 'src', 'nested', 'a.ts'), 'one');
    const first = sourceFingerprint(root);
    expect(sourceFingerprint(root)).toBe(first);
    writeFileSync(path.join(root, 'src', 'nested', 'a.ts'), 'two!');
    const edited = sourceFingerprint(root);
    expect(edited).not.toBe(first);
    // The CLI bundles the packages: an npm install (which rewrites its record) changes it.
    writeFileSync(path.join(root, 'node_modules', '.package-lock.json'), '{"packages":{}}');
    const installed = sourceFingerprint(root);
    expect(installed).not.toBe(edited);
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(root, 'node_modules', '.package-lock.json'), later, later);
    expect(sourceFingerprint(root)).not.toBe(installed);
    expect(sourceFingerprint(root)).toBe(sourceFingerprint(root));
  });
});

describe('the compiled package (lib/) the CLI runs', () => {
  let scratch: string;
  const cli = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(scratch, 'bin', 'ssg.js'), ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const lib = () => path.join(scratch, 'lib');

  beforeAll(async () => {
    // The generator's own files in a folder of their own: its lib/ is this test's to damage.
    scratch = await mkdtemp(path.join(tmpdir(), 'ssg-lib-'));
    for (const part of ['bin', 'src', 'lib', 'package.json'])
      cpSync(path.join(repoRoot, part), path.join(scratch, part), { recursive: true });
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(scratch, 'node_modules'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('is run when whole and made from the sources as they are; compiling nothing at start', async () => {
    expect(libProblem(scratch)).toBeUndefined();
    const result = await cli('--help', '--verbose');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage');
    expect(result.stderr).toBe('');
    expect(existsSync(path.join(scratch, '.cache'))).toBe(false);
  });

  it('is never run damaged or stale: the CLI runs its sources instead, says why under --verbose, and works all the same', async () => {
    const first = await cli('--help');
    const list = JSON.parse(readFileSync(path.join(lib(), 'files.json'), 'utf8')) as { files: Record<string, unknown> };
    const names = Object.keys(list.files).filter(
      (name) => !name.endsWith('.map') && (name.endsWith('.js') || name === 'cli.js'),
    );
    const pristine = path.join(scratch, 'lib-pristine');
    cpSync(lib(), pristine, { recursive: true });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names, 'files.json'), corruptions(), async (name, corruption) => {
        await rm(lib(), { recursive: true, force: true });
        cpSync(pristine, lib(), { recursive: true });
        damage(path.join(lib(), name), corruption);
        expect(libProblem(scratch)).toBeDefined();
        const result = await cli('--help', '--verbose');
        expect(result.code).toBe(0);
        expect(result.stdout).toBe(first.stdout);
        expect(result.stderr).toMatch(
          /^ssg: running from the TypeScript sources: .+ \(npm run build:package compiles it\)\n$/,
        );
      }),
      { numRuns: 4 },
    );
    await rm(lib(), { recursive: true, force: true });
    cpSync(pristine, lib(), { recursive: true });
    expect(libProblem(scratch)).toBeUndefined();
    // A source edited since lib/ was made (a checkout): the sources run.
    const file = path.join(scratch, 'src', 'index.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// edited\n`);
    expect(libProblem(scratch)).toBe('src/ has changed since lib/ was compiled');
    const stale = await cli('--help', '--verbose');
    expect(stale.stdout).toBe(first.stdout);
    expect(stale.stderr).toContain('src/ has changed since lib/ was compiled');
  }, 120_000);
});
