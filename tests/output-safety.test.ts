// `build --out` never deletes what it does not own: each dangerous value is refused with exit 2
// and leaves the project and the folders around it exactly as they were.
import fc from 'fast-check';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import { usageErrorCodes } from '../src/errors/errors-data.ts';
import { OUTPUT_MARKER, checkOwnership, outputMarkerOf, resolveOutDir } from '../src/output/output-target.ts';
import { projectAt } from '../src/project.ts';
import { repoRoot, runCli } from './helpers/project.ts';
import { snapshotTree, treeChanges } from './helpers/tree.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

/**
 * A scratch folder with the project six levels down (so no `..` a test generates leaves the
 * scratch folder), a user's folder beside it, and the things a careless --out could hit.
 */
async function makeScratch() {
  const root = await mkdtemp(path.join(tmpdir(), 'ssg-out-'));
  const deep = path.join(root, 'a', 'b', 'c', 'd', 'e', 'f');
  const project = path.join(deep, 'project');
  await cp(fixture, project, { recursive: true });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write(path.join(deep, 'Documents', 'notes.txt'), 'the user’s own file');
  write(path.join(project, 'src', 'keep.ts'), 'export {};\n');
  write(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  write(path.join(project, 'notes.txt'), 'a file, not a folder');
  write(path.join(project, 'foreign', 'a.txt'), 'not written by a build');
  write(path.join(project, 'deploy', '.git', 'HEAD'), 'ref: refs/heads/gh-pages\n');
  write(path.join(project, 'deploy', 'CNAME'), 'www.example.org\n');
  write(path.join(project, 'deploy', 'index.html'), 'the site as last deployed');
  mkdirSync(path.join(deep, 'elsewhere'));
  symlinkSync('content', path.join(project, 'link-content'));
  symlinkSync('../elsewhere', path.join(project, 'link-out'));
  symlinkSync('../not-yet', path.join(project, 'link-dangling'));
  symlinkSync('..', path.join(project, 'link-up'));
  return { root, deep, project };
}

type Scratch = Awaited<ReturnType<typeof makeScratch>>;

/** Runs a build and returns it with what changed in the scratch folder, the project's caches aside. */
async function buildAndDiff(scratch: Scratch, args: string[]) {
  const skip = [path.join(scratch.project, '.cache')];
  const before = snapshotTree(scratch.root, skip);
  const result = await runCli(['build', ...args], scratch.project);
  return { result, changes: treeChanges(before, snapshotTree(scratch.root, skip)) };
}

/** Changes outside `folder`, but for folders made to hold it (`--out new/dist` makes `new/`). */
/** A change outside the output folder and its marker beside it (the build's own two). */
const outsideOf = (folder: string, root: string) => (change: string) => {
  const [kind, ...rest] = change.split(' ');
  const file = path.join(root, rest.join(' '));
  if (file === folder || file.startsWith(folder + path.sep) || file === outputMarkerOf(folder)) return false;
  return !(kind === 'added' && folder.startsWith(file + path.sep));
};

describe('dangerous --out values are refused with exit 2 and change nothing', () => {
  let scratch: Scratch;
  beforeAll(async () => {
    scratch = await makeScratch();
  });
  afterAll(() => rm(scratch.root, { recursive: true, force: true }));

  const cases: Array<[string, string]> = [
    ['.', 'OutDirContainsProject'],
    ['./', 'OutDirContainsProject'],
    ['', 'OutDirEmpty'],
    ['   ', 'OutDirEmpty'],
    ['..', 'OutDirContainsProject'],
    ['../..', 'OutDirContainsProject'],
    ['dist/..', 'OutDirContainsProject'],
    ['link-up', 'OutDirContainsProject'],
    ['../Documents', 'OutDirNotOwned'],
    ['content', 'OutDirInSources'],
    ['content/news/out', 'OutDirInSources'],
    ['link-content', 'OutDirInSources'],
    ['site', 'OutDirInSources'],
    ['src', 'OutDirInSources'],
    ['templates', 'OutDirInSources'],
    ['.git', 'OutDirInSources'],
    ['node_modules', 'OutDirInSources'],
    ['.cache', 'OutDirInSources'],
    ['notes.txt', 'OutDirIsFile'],
    ['notes.txt/dist', 'OutDirThroughFile'],
    ['foreign', 'OutDirNotOwned'],
    ['deploy', 'OutDirNotOwned'],
  ];
  it.each(cases)('--out %j: %s', async (value, code) => {
    const { result, changes } = await buildAndDiff(scratch, ['--out', value]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`[${code}]`);
    expect(result.stderr).toMatch(/hint: \S/);
    expect(result.stderr).not.toContain('Unexpected internal error');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(changes).toEqual([]);
  });

  it('the project folder given as an absolute path, and -C pointing at nothing', async () => {
    const absolute = await buildAndDiff(scratch, ['--out', scratch.project]);
    expect(absolute.result.code).toBe(2);
    expect(absolute.changes).toEqual([]);
    const missing = await runCli(['-C', 'no-such-folder', 'build'], scratch.project);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '[ProjectRootMissing] The site folder does not exist\n  The site folder "no-such-folder"',
    );
  });

  it('an output folder whose parent cannot be written: a message, exit 1, no internal error', async () => {
    // As root every ordinary folder is writable; /proc is not, for anyone.
    const result = await runCli(['build', '--out', '/proc/ssg-test-output'], scratch.project);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OutDirNotWritable]');
    expect(result.stderr).not.toContain('Unexpected internal error');
  });
});

describe('--out folders the build may write: only they change', () => {
  let scratch: Scratch;
  beforeAll(async () => {
    scratch = await makeScratch();
  });
  afterAll(() => rm(scratch.root, { recursive: true, force: true }));

  it('a new folder: written and marked beside it (never inside, where a host would serve the marker); the next build replaces it without a flag', async () => {
    const dist = path.join(scratch.project, 'dist');
    const first = await buildAndDiff(scratch, []);
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(first.changes.filter(outsideOf(dist, scratch.root))).toEqual([]);
    expect(existsSync(outputMarkerOf(dist))).toBe(true);
    expect(existsSync(path.join(dist, OUTPUT_MARKER))).toBe(false);
    const second = await buildAndDiff(scratch, ['--out', 'dist/']);
    expect(second.result.code, second.result.stderr).toBe(0);
    expect(second.changes.filter(outsideOf(dist, scratch.root))).toEqual([]);
  });

  it('a folder an earlier version built (no marker, its layout) is recognised and marked', async () => {
    const dist = path.join(scratch.project, 'dist');
    rmSync(outputMarkerOf(dist));
    writeFileSync(path.join(dist, 'stray.html'), 'left by hand');
    const { result, changes } = await buildAndDiff(scratch, []);
    expect(result.code, result.stderr).toBe(0);
    expect(changes.filter(outsideOf(dist, scratch.root))).toEqual([]);
    expect(existsSync(outputMarkerOf(dist))).toBe(true);
    expect(existsSync(path.join(dist, 'stray.html'))).toBe(false);
  });

  it('the marker vouches for its own folder only: one made anew at that path is refused, and a link in its place is never written through', async () => {
    const dist = path.join(scratch.project, 'dist');
    expect((await buildAndDiff(scratch, [])).result.code).toBe(0);
    // The folder removed and made again by hand (the marker beside it left over): not the build's.
    rmSync(dist, { recursive: true });
    mkdirSync(dist);
    writeFileSync(path.join(dist, 'notes.txt'), 'precious');
    const refused = await buildAndDiff(scratch, []);
    expect(refused.result.code).toBe(2);
    expect(refused.result.stderr).toContain('[OutDirNotOwned]');
    expect(readFileSync(path.join(dist, 'notes.txt'), 'utf8')).toBe('precious');
    rmSync(dist, { recursive: true });
    // A link where the marker goes, pointing nowhere: the build neither follows nor removes it.
    rmSync(outputMarkerOf(dist));
    const target = path.join(scratch.root, 'written-through-the-link');
    symlinkSync(target, outputMarkerOf(dist));
    expect((await buildAndDiff(scratch, [])).result.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(outputMarkerOf(dist)).isSymbolicLink()).toBe(true);
    rmSync(outputMarkerOf(dist));
    expect((await buildAndDiff(scratch, [])).result.code).toBe(0);
    expect(lstatSync(outputMarkerOf(dist)).isFile()).toBe(true);
  });

  it('a folder with the marker inside, where earlier versions wrote it, is owned; the next build moves the marker beside it', async () => {
    const dist = path.join(scratch.project, 'dist');
    rmSync(outputMarkerOf(dist));
    writeFileSync(path.join(dist, 'stray.html'), 'left by hand');
    rmSync(path.join(dist, 'sitemap.xml'), { force: true }); // not the earlier layout: only the marker says it is owned
    writeFileSync(path.join(dist, OUTPUT_MARKER), 'This folder was written by "ssg build".\n');
    const { result } = await buildAndDiff(scratch, []);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(dist, OUTPUT_MARKER))).toBe(false);
    expect(existsSync(outputMarkerOf(dist))).toBe(true);
  });

  it('a gh-pages checkout with --empty-out-dir: the site replaces it, .git and CNAME stay', async () => {
    const deploy = path.join(scratch.project, 'deploy');
    for (const args of [
      ['--out', 'deploy', '--empty-out-dir'],
      ['--out', 'deploy'],
    ]) {
      const { result, changes } = await buildAndDiff(scratch, args);
      expect(result.code, result.stderr).toBe(0);
      expect(changes.filter(outsideOf(deploy, scratch.root))).toEqual([]);
      expect(changes.filter((change) => /deploy\/(\.git|CNAME)/.test(change))).toEqual([]);
      expect(readFileSync(path.join(deploy, 'CNAME'), 'utf8')).toBe('www.example.org\n');
      expect(readFileSync(path.join(deploy, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
      expect(readFileSync(path.join(deploy, 'index.html'), 'utf8')).toContain('<!doctype html>');
    }
  });

  it('a symbolic link to a folder: the site goes into the target and the link stays', async () => {
    const target = path.join(scratch.deep, 'elsewhere');
    const { result, changes } = await buildAndDiff(scratch, ['--out', 'link-out']);
    expect(result.code, result.stderr).toBe(0);
    expect(changes.filter(outsideOf(target, scratch.root))).toEqual([]);
    expect(lstatSync(path.join(scratch.project, 'link-out')).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(target, 'index.html'))).toBe(true);
  });

  it('a symbolic link pointing nowhere yet: its target is made and gets the site', async () => {
    const target = path.join(scratch.deep, 'not-yet');
    const { result, changes } = await buildAndDiff(scratch, ['--out', 'link-dangling']);
    expect(result.code, result.stderr).toBe(0);
    expect(changes.filter(outsideOf(target, scratch.root))).toEqual([]);
    expect(readlinkSync(path.join(scratch.project, 'link-dangling'))).toBe('../not-yet');
    expect(existsSync(path.join(target, 'index.html'))).toBe(true);
  });

  it('the user’s folder with --empty-out-dir is replaced only because they said so', async () => {
    const documents = path.join(scratch.deep, 'Documents');
    const { result, changes } = await buildAndDiff(scratch, ['--out', '../Documents', '--empty-out-dir']);
    expect(result.code, result.stderr).toBe(0);
    expect(changes.filter(outsideOf(documents, scratch.root))).toEqual([]);
  });
});

/** --out values as people and scripts mistype them: dots, slashes, links, sources, absolute paths. */
function outValue(scratch: Scratch) {
  const segment = fc.constantFrom(
    '.',
    '..',
    '',
    'dist',
    'x',
    'content',
    'site',
    'src',
    'templates',
    '.git',
    'node_modules',
    'foreign',
    'notes.txt',
    'deploy',
    'link-content',
    'link-out',
    'link-dangling',
    'link-up',
    'Documents',
    'sub',
    '...',
    'a b',
    'ü',
    '-',
  );
  const prefix = fc.constantFrom('', '', scratch.project + '/', scratch.deep + '/', './');
  return fc
    .tuple(prefix, fc.array(segment, { minLength: 0, maxLength: 5 }), fc.constantFrom('', '/', '//'))
    .map(([start, parts, end]) => start + parts.join('/') + end);
}

const isInside = (folder: string, file: string) => file === folder || file.startsWith(folder + path.sep);

describe('property: any --out value is refused with a usage error or names a folder the build may own', () => {
  let scratch: Scratch;
  beforeAll(async () => {
    scratch = await makeScratch();
  });
  afterAll(() => rm(scratch.root, { recursive: true, force: true }));

  it('checked in-process, hundreds of values (plus NUL and over-long names)', () => {
    const project = projectAt(scratch.project);
    const sources = ['content', 'site', 'templates', 'src', 'node_modules', '.git', '.cache'].map((name) =>
      path.join(scratch.project, name),
    );
    const malformed = fc.oneof(outValue(scratch), fc.string(), fc.constant('a\0b'), fc.constant('x'.repeat(5000)));
    fc.assert(
      fc.property(malformed, fc.boolean(), (value, emptyOutDir) => {
        let outDir: string;
        try {
          outDir = resolveOutDir(project, value);
          checkOwnership(outDir, value, emptyOutDir);
        } catch (error) {
          expect(error).toBeInstanceOf(SsgError);
          expect(usageErrorCodes.has((error as SsgError).code), (error as SsgError).message).toBe(true);
          return;
        }
        expect(isInside(outDir, scratch.project)).toBe(false);
        for (const source of [...sources, path.join(scratch.project, 'content')])
          expect(isInside(source, outDir)).toBe(false);
        const stat = lstatSync(outDir, { throwIfNoEntry: false });
        if (stat) expect(stat.isDirectory()).toBe(true);
        if (outDir === path.join(scratch.project, 'foreign') || outDir === path.join(scratch.project, 'deploy'))
          expect(emptyOutDir).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('run through the CLI: exit 2 and nothing changed, or exit 0 and changes only in the output folder', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(outValue(scratch), async (value) => {
        fc.pre(isInside(scratch.root, path.resolve(scratch.project, value)));
        runs++;
        const { result, changes } = await buildAndDiff(scratch, ['--out', value]);
        expect(result.stderr).not.toContain('Unexpected internal error');
        if (result.code === 2) {
          expect(changes).toEqual([]);
          return;
        }
        expect(result.code, result.stderr).toBe(0);
        const outDir = resolveOutDir(projectAt(scratch.project), value);
        expect(changes.filter(outsideOf(outDir, scratch.root)), value).toEqual([]);
        expect(existsSync(outputMarkerOf(outDir))).toBe(true);
      }),
      { numRuns: 8 },
    );
    expect(runs).toBeGreaterThan(3);
  });
});
