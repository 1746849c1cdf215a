// `ssg init <folder>`: a new site in a folder that does not exist or is empty, never over anything;
// the two commands it prints work when pasted into a shell. (The installed package's init, and a
// build of what it writes, are in tests/package.test.ts.)
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runCli } from './helpers/project.ts';

const starterFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).replace(/^gitignore$/, '.gitignore'))
    .sort();
const STARTER = starterFiles(path.join(repoRoot, 'starter'));

/** Everything below `dir`, with each file's bytes: to see that a refused init changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    entries[path.relative(dir, file)] = entry.isFile()
      ? readFileSync(file, 'base64')
      : entry.isDirectory()
        ? 'dir'
        : 'other';
  }
  return entries;
}

describe('ssg init', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'ssg-init-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('fills an existing empty folder in place (its inode, mode and .git kept) and prints the commands for it', async () => {
    const dir = path.join(scratch, 'existing');
    mkdirSync(path.join(dir, '.git'), { recursive: true });
    writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    chmodSync(dir, 0o2770);
    const before = statSync(dir);
    const result = await runCli(['init', '.'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Outside any node_modules/ssg: the command names this CLI by its path.
    expect(result.stdout).toBe(
      `Created a site in . (${STARTER.length} files). Next:\n  node ${cliPath} dev\n  node ${cliPath} build\n`,
    );
    const after = statSync(dir);
    expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
    expect(starterFiles(dir).filter((file) => !file.startsWith('.git/'))).toEqual(STARTER);
    expect(readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(readdirSync(dir).filter((name) => name.startsWith('.ssg-init-'))).toEqual([]);
  });

  it('refuses a folder that holds anything, a file, a symbolic link and an empty name, changing nothing', async () => {
    const dir = path.join(scratch, 'refusals');
    mkdirSync(path.join(dir, 'full'), { recursive: true });
    writeFileSync(path.join(dir, 'full', 'notes.txt'), 'mine');
    writeFileSync(path.join(dir, 'a-file'), 'mine too');
    mkdirSync(path.join(dir, 'empty'));
    symlinkSync('empty', path.join(dir, 'link'));
    const before = snapshot(dir);
    for (const [folder, code] of [
      ['full', 'InitFolderNotEmpty'],
      ['a-file', 'InitFolderNotEmpty'],
      ['link', 'InitFolderNotEmpty'],
      ['', 'InitFolderMissing'],
      ['  ', 'InitFolderMissing'],
    ] as const) {
      const result = await runCli(['init', folder], dir);
      expect(result.code, folder).toBe(2);
      expect(result.stderr).toContain(`[${code}]`);
      expect(result.stderr).not.toContain('Unexpected internal error');
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('makes missing parents, and takes a name near the file system limit', async () => {
    const long = 'c'.repeat(250);
    const result = await runCli(['init', path.join('a', 'b', long)], scratch);
    expect(result.code).toBe(0);
    expect(starterFiles(path.join(scratch, 'a', 'b', long))).toEqual(STARTER);
    const tooLong = await runCli(['init', 'x'.repeat(300)], scratch);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('[InitFailed]');
    expect(tooLong.stderr).not.toContain('Unexpected internal error');
  });

  it('any folder name: the site is made and the printed cd leads into it, or init is refused by name and leaves nothing', async () => {
    const names = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom(
        '-',
        '-dash',
        '--',
        '..',
        '.',
        'a b',
        "it's",
        '$(touch pwned)',
        'ü ñ 漢字',
        '~',
        '*',
        'a\\b',
        '\tx',
      ),
    );
    let round = 0;
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const cwd = path.join(scratch, `prop-${round++}`);
        mkdirSync(cwd);
        const result = await runCli(['init', '--', name], cwd);
        if (result.code !== 0) {
          expect([1, 2]).toContain(result.code);
          expect(result.stderr).toMatch(/\[Init\w+\]/);
          expect(result.stderr).not.toContain('Unexpected internal error');
          expect(readdirSync(cwd)).toEqual([]);
          return;
        }
        const lines = result.stdout.split('\n');
        expect(lines[0]).toMatch(/^Created a site in .+ \(\d+ files\)\. Next:$/);
        const cd = lines[1]!.trim();
        if (!cd.startsWith('cd ')) return; // '.', into cwd itself
        // The printed line, run by bash in the folder init ran in, lands in the new site.
        const { stdout } = await promisify(execFile)('bash', ['-c', `${cd} && pwd -P && ls -A`], { cwd });
        const [where, ...entries] = stdout.trim().split('\n');
        expect(existsSync(path.join(where!, 'site', 'index.tsx'))).toBe(true);
        expect(entries).toContain('site');
        expect(existsSync(path.join(scratch, 'pwned'))).toBe(false);
      }),
      { numRuns: 25, examples: [['-'], ['-dash'], ["it's"], ['$(touch pwned)'], ['..'], ['a b/c']] },
    );
    // 31 CLI runs: a bound for a loaded CI machine, not a speed goal.
  }, 300_000);
});
