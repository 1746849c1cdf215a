// Faults found by attacking the output stage from outside: each case once broke a build with a raw
// stack trace or left it unusable.
import fc from 'fast-check';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInterrupts } from '../src/base/interrupt.ts';
import { SsgError, isUsageError } from '../src/errors/errors.ts';
import { createStagedOutput } from '../src/output/output.ts';
import { OUTPUT_MARKER, checkOwnership } from '../src/output/output-target.ts';
import { repoRoot } from './helpers/project.ts';

const made: string[] = [];
async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ssg-output-faults-'));
  made.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a file that cannot be written into the staging folder', () => {
  it('fails the commit with OutDirNotWritable (no unhandled rejection), removes the staging folder, keeps the old output', async () => {
    // A page path that runs through another page's file: the write fails as a full disk or a
    // read-only folder would, synchronously inside write().
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z]{1,8}$/), fc.integer({ min: 0, max: 5 }), async (name, before) => {
        const root = await scratch();
        const outDir = path.join(root, 'dist');
        mkdirSync(path.join(outDir, 'kept'), { recursive: true });
        const publicDir = path.join(root, 'public');
        const output = await createStagedOutput(outDir, publicDir);
        for (let index = 0; index < before; index++) output.write({ path: `page-${index}.html`, contents: 'x' });
        output.write({ path: `${name}.html`, contents: 'page' });
        output.write({ path: `${name}.html/inner.html`, contents: 'blocked' });
        // Give an unhandled rejection the turns it needs to be reported before the commit.
        await new Promise((resolve) => setImmediate(resolve));
        const error = await output.commit().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(SsgError);
        expect((error as SsgError).code).toBe('OutDirNotWritable');
        // The output folder named, and the staging folder said to be gone (it is).
        expect((error as SsgError).message).toMatch(
          new RegExp(
            `^Could not write the site for ${outDir}: .*Nothing was swapped in, and the unfinished copy dist\\.tmp-\\d+-\\d+ is removed\\.$`,
          ),
        );
        expect(existsSync(path.join(outDir, 'kept'))).toBe(true);
        expect(readdirSync(root).filter((entry) => entry.includes('.tmp-'))).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});

describe('what a stop leaves', () => {
  it('says nothing was swapped in until the commit swaps the new site in, then that it is in place', async () => {
    const root = await scratch();
    const outDir = path.join(root, 'dist');
    const interrupts = createInterrupts();
    for (let build = 0; build < 2; build++) {
      const output = await createStagedOutput(outDir, path.join(root, 'public'), { interrupts });
      output.write({ path: 'index.html', contents: `build ${build}` });
      expect(interrupts.outcome()).toBe('nothing was swapped in');
      await output.commit();
      expect(interrupts.outcome()).toBe(`the new site is in place in ${outDir}`);
    }
  });
});

describe('files written as they are made', () => {
  it('all land with their contents, the last write of a path winning, whatever their folders and order', async () => {
    // Two writes of one file land in the order they were made, and every folder before its file
    // (an earlier version wrote on libuv's threads, where neither held by itself).
    const segment = fc.constantFrom('a', 'b', 'news', 'x-y');
    const file = fc.tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom('index.html', 'card.png', 'feed.xml'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(file, fc.string({ maxLength: 40 })), { minLength: 1, maxLength: 60 }),
        async (writes) => {
          const root = await scratch();
          const outDir = path.join(root, 'dist');
          const output = await createStagedOutput(outDir, path.join(root, 'public'));
          const expected = new Map<string, string>();
          for (const [[folders, name], contents] of writes) {
            const file = [...folders, name].join('/');
            output.write({ path: file, contents });
            expected.set(file, contents);
          }
          await output.commit();
          for (const [file, contents] of expected) expect(readFileSync(path.join(outDir, file), 'utf8')).toBe(contents);
          expect(readdirSync(root).filter((entry) => entry.includes('.tmp-'))).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the writer under pressure', () => {
  it('more files than the process may open at once: all land, a bounded number open at a time', () => {
    // A process allowed 256 open files (ulimit -n; some CI runners and containers allow 1,024)
    // writes 1,000: a write holds its handle from open to close, and writes tried on libuv's
    // threads, 1,000 started at once, ran out (EMFILE).
    const root = mkdtempSync(path.join(tmpdir(), 'ssg-output-faults-'));
    made.push(root);
    const script = `
      import { createStagedOutput } from './src/output/output.ts';
      const [root, count] = process.argv.slice(-2);
      const output = await createStagedOutput(root + '/dist', root + '/public');
      for (let index = 0; index < Number(count); index++) output.write({ path: 'news/' + (index % 10) + '/' + index + '.html', contents: 'page ' + index });
      await output.commit();
    `;
    const child = spawnSync(
      'bash',
      [
        '-c',
        'ulimit -n 256 && exec "$@"',
        'bash',
        process.execPath,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
        root,
        '1000',
      ],
      {
        cwd: repoRoot,
        encoding: 'utf8',
      },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const written = readdirSync(path.join(root, 'dist'), { recursive: true }).filter((entry) =>
      String(entry).endsWith('.html'),
    );
    expect(written).toHaveLength(1000);
  });

  it('a staging folder removed while files are written is not made again: the commit fails and the old output stays', async () => {
    // Folders were made with mkdir -p, which made the removed staging folder again, and the commit
    // swapped in a site holding only the files written after the removal.
    const segment = fc.constantFrom('a', 'b', 'news');
    const file = fc
      .tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom('index.html', 'card.png'))
      .map(([folders, name]) => [...folders, name].join('/'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(file, { maxLength: 20 }),
        fc.array(file, { minLength: 1, maxLength: 20 }),
        async (before, after) => {
          const root = await scratch();
          const outDir = path.join(root, 'dist');
          mkdirSync(path.join(outDir, 'kept'), { recursive: true });
          const output = await createStagedOutput(outDir, path.join(root, 'public'));
          for (const name of before) output.write({ path: name, contents: 'before' });
          // Until the first files have landed (bounded: they land within a few turns).
          for (
            let turns = 0;
            turns < 10_000 && !before.every((name) => existsSync(path.join(output.staging, name)));
            turns++
          ) {
            await new Promise((resolve) => setImmediate(resolve));
          }
          rmSync(output.staging, { recursive: true, force: true });
          for (const name of after) output.write({ path: name, contents: 'after' });
          const error = await output.commit().then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect((error as SsgError).code).toBe('OutDirNotWritable');
          expect(readdirSync(outDir)).toEqual(['kept']);
          expect(readdirSync(root)).toEqual(['dist']);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the interrupt's clean-up removes the staging folder in the middle of writing, and nothing makes it again", async () => {
    // The signal handler removes the folder synchronously, then the process exits. With writes on
    // libuv's threads (tried once) rmSync failed (ENOTEMPTY) while queued writes went on creating
    // files, and the folder was left.
    const root = await scratch();
    const outDir = path.join(root, 'dist');
    mkdirSync(path.join(outDir, 'kept'), { recursive: true });
    const interrupts = createInterrupts();
    const output = await createStagedOutput(outDir, path.join(root, 'public'), { interrupts });
    for (let index = 0; index < 2000; index++)
      output.write({ path: `news/${index % 20}/${index}.html`, contents: 'x'.repeat(1000) });
    // Until a tenth of the files have landed (at once when writes are synchronous; bounded otherwise).
    for (let turns = 0; turns < 100_000 && !existsSync(path.join(output.staging, 'news/0/200.html')); turns++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    interrupts.runAll();
    expect(existsSync(output.staging)).toBe(false);
    output.write({ path: 'news/late/index.html', contents: 'after the clean-up' });
    expect(existsSync(output.staging)).toBe(false);
    const error = await output.commit().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as SsgError).code).toBe('OutDirNotWritable');
    expect(readdirSync(outDir)).toEqual(['kept']);
    expect(readdirSync(root)).toEqual(['dist']);
  });
});

describe('public files that cannot be copied into the staging folder', () => {
  const cases: Array<[string, (publicDir: string) => void]> = [
    ['a FIFO', (publicDir) => execFileSync('mkfifo', [path.join(publicDir, 'pipe')])],
    ['a folder named like the marker', (publicDir) => mkdirSync(path.join(publicDir, OUTPUT_MARKER))],
  ];
  for (const [what, make] of cases) {
    it(`${what}: OutDirNotWritable naming the folder, no staging folder left, the old output kept`, async () => {
      const root = await scratch();
      const outDir = path.join(root, 'dist');
      mkdirSync(path.join(outDir, 'kept'), { recursive: true });
      const publicDir = path.join(root, 'public');
      mkdirSync(publicDir);
      writeFileSync(path.join(publicDir, 'robots.txt'), 'User-agent: *\n');
      make(publicDir);
      const error = await createStagedOutput(outDir, publicDir).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SsgError);
      expect((error as SsgError).code).toBe('OutDirNotWritable');
      // The output folder named, and the staging folder said to be gone (it is).
      expect((error as SsgError).message).toMatch(
        new RegExp(
          `^Could not copy the public files for ${outDir}: .*Nothing was swapped in, and the unfinished copy dist\\.tmp-\\d+-\\d+ is removed\\.$`,
          's',
        ),
      );
      expect(readdirSync(root).sort()).toEqual(['dist', 'public']);
      expect(readdirSync(outDir)).toEqual(['kept']);
    });
  }
});

/** Mounts a small tmpfs (or binds `dir` onto itself); false where this process may not mount. */
function tryMount(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'ssg-mount-probe-'));
  const mounted = tryMount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
  if (mounted) execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
})();

describe.skipIf(!canMount)('an output folder that is a mount point (needs root and mount)', () => {
  const mounts: string[] = [];
  afterEach(() => {
    for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
  });

  it('a tmpfs (another file system): refused up front with OutDirIsMountPoint, a usage error, nothing written', async () => {
    const root = await scratch();
    const outDir = path.join(root, 'dist');
    mkdirSync(outDir);
    expect(tryMount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', outDir])).toBe(true);
    mounts.push(outDir);
    for (const emptyOutDir of [false, true]) {
      let error: unknown;
      try {
        checkOwnership(outDir, 'dist', emptyOutDir);
      } catch (caught) {
        error = caught;
      }
      expect((error as SsgError).code).toBe('OutDirIsMountPoint');
      expect(isUsageError(error)).toBe(true);
    }
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('a bind mount on the same file system: the swap fails with OutDirIsMountPoint, the folder keeps its files, nothing left beside it', async () => {
    const root = await scratch();
    const outDir = path.join(root, 'dist');
    mkdirSync(outDir);
    writeFileSync(path.join(outDir, OUTPUT_MARKER), 'old');
    expect(tryMount(['--bind', outDir, outDir])).toBe(true);
    mounts.push(outDir);
    const output = await createStagedOutput(outDir, path.join(root, 'public'));
    output.write({ path: 'index.html', contents: 'new' });
    const error = await output.commit().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as SsgError).code).toBe('OutDirIsMountPoint');
    expect(readdirSync(outDir)).toEqual([OUTPUT_MARKER]);
    expect(readdirSync(root)).toEqual(['dist']);
  });
});
