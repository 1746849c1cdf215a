// `ssg init <folder>`: a new site in a folder that does not exist or is empty, never over anything;
// the two commands it prints work when pasted into a shell. In a project that installed ssg, the
// scripts that run the site join its package.json and a .gitignore is written, replacing nothing.
// (The installed package's init, and `npm run build` of what it writes, are in tests/package.test.ts.)
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
import { PROJECT_GITIGNORE, SITE_ALLOW_SCRIPTS, siteScripts } from '../src/cli/init-project.ts';
import { addAllowScripts, allowsScripts, mergeScripts } from '../src/cli/package-scripts.ts';
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
      `Created a site in . (${STARTER.length} files).\nNext:\n  node ${cliPath} dev\n  node ${cliPath} build\n`,
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

  it('names what a folder it refuses holds: a hidden file too', async () => {
    const dir = path.join(scratch, 'holding');
    mkdirSync(path.join(dir, 'mac'), { recursive: true });
    writeFileSync(path.join(dir, 'mac', '.DS_Store'), '');
    mkdirSync(path.join(dir, 'many'));
    for (const name of ['d', 'c', 'b', 'a']) writeFileSync(path.join(dir, 'many', name), '');
    const mac = await runCli(['init', 'mac'], dir);
    expect(mac.stderr).toContain('"mac" already exists and is not an empty folder (it holds ".DS_Store").');
    const many = await runCli(['init', 'many'], dir);
    expect(many.stderr).toContain('"many" already exists and is not an empty folder (it holds "a", "b" and 2 more).');
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
        expect(lines[0]).toMatch(/^Created a site in .+ \(\d+ files\)\.$/);
        expect(lines[1]).toBe('Next:');
        const cd = lines[2]!.trim();
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

/** The text of `after` is `before` with one insertion (where at most some whitespace went). */
function oneInsertion(before: string, after: string): boolean {
  let head = 0;
  while (head < before.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && before.at(-1 - tail) === after.at(-1 - tail)) tail++;
  return /^\s*$/.test(before.slice(head, before.length - tail));
}

describe('ssg init in a project that installed ssg', () => {
  let scratch: string;
  const npm = promisify(execFile);

  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'ssg-init-project-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  /** A folder as `npm install ssg` leaves it: node_modules/ssg (this checkout) and its bin. */
  function project(name: string, files: Record<string, string> = {}): string {
    const dir = path.join(scratch, name);
    mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(repoRoot, path.join(dir, 'node_modules', 'ssg'));
    symlinkSync(path.join('..', 'ssg', 'bin', 'ssg.js'), path.join(dir, 'node_modules', '.bin', 'ssg'));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    return dir;
  }

  it('adds build, dev, preview, typecheck and allowScripts to its package.json, writes its .gitignore, and says npm run dev', async () => {
    const manifest =
      '{\n  "name": "mine",\n  "files": ["a", "b"],\n  "dependencies": {\n    "ssg": "file:ssg-0.1.0.tgz"\n  }\n}\n';
    const dir = project('fresh', { 'package.json': manifest });
    const result = await runCli(['init', 'my-site'], dir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `Created a site in my-site (${STARTER.length} files).`,
        'Added the scripts "build", "dev", "preview", "typecheck" to package.json.',
        'Added "allowScripts" for "esbuild", "sharp" to package.json.',
        'Wrote .gitignore.',
        'Next:',
        '  cd my-site',
        '  npm run dev',
        'To type-check it: npm install -D typescript @types/react, then npm run typecheck.',
        '',
      ].join('\n'),
    );
    const written = readFileSync(path.join(dir, 'package.json'), 'utf8');
    expect(oneInsertion(manifest, written)).toBe(true);
    expect(JSON.parse(written)).toEqual({
      ...JSON.parse(manifest),
      scripts: siteScripts('my-site'),
      allowScripts: { esbuild: true, sharp: true },
    });
    expect(SITE_ALLOW_SCRIPTS).toEqual({ esbuild: true, sharp: true });
    expect(siteScripts('my-site')).toEqual({
      build: 'ssg -C my-site build',
      dev: 'ssg -C my-site dev',
      preview: 'ssg -C my-site preview',
      typecheck: 'tsc -p my-site',
    });
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\n');
    // The site's own .gitignore holds what the build and dev write there.
    const ignored = readFileSync(path.join(dir, 'my-site', '.gitignore'), 'utf8');
    for (const entry of ['node_modules/', 'dist/', '*.ssg-output', '.cache/'])
      expect(ignored).toContain(`\n${entry}\n`);
    // npm, started in the site, finds the project's script and runs this ssg's bin with the site's folder.
    const { stdout } = await npm('npm', ['run', '--silent', 'build', '--', '--help'], {
      cwd: path.join(dir, 'my-site'),
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(stdout).toMatch(/^Usage: ssg build \[options\]/);
    expect(readdirSync(dir).filter((name) => name.includes('.ssg-init-'))).toEqual([]);
  });

  it('leaves scripts, a .gitignore and a package.json that are there as they were, and names each', async () => {
    const manifest =
      '\uFEFF{\r\n\t"name": "mine",\r\n\t"scripts": {\r\n\t\t"build": "vite build",\r\n\t\t"dev": "vite"\r\n\t},\r\n\t"private": true\r\n}';
    const dir = project('kept', { 'package.json': manifest, '.gitignore': 'mine/\n' });
    chmodSync(path.join(dir, 'package.json'), 0o640);
    const result = await runCli(['init', 'my-site'], dir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `Created a site in my-site (${STARTER.length} files).`,
        'Added the scripts "preview", "typecheck" to package.json.',
        'Added "allowScripts" for "esbuild", "sharp" to package.json.',
        'Left as they were: the scripts "build", "dev" in package.json (there already, with another command).',
        'Left as it was: .gitignore (there already, and node_modules/ is not ignored by it).',
        'Next:',
        '  cd my-site',
        '  npx ssg dev',
        'To type-check it: npm install -D typescript @types/react, then npm run typecheck.',
        '',
      ].join('\n'),
    );
    const written = readFileSync(path.join(dir, 'package.json'), 'utf8');
    expect(written).toBe(
      '\uFEFF{\r\n\t"name": "mine",\r\n\t"scripts": {\r\n\t\t"build": "vite build",\r\n\t\t"dev": "vite",\r\n\t\t"preview": "ssg -C my-site preview",\r\n\t\t"typecheck": "tsc -p my-site"\r\n\t},\r\n\t"private": true,\r\n\t"allowScripts": {\r\n\t\t"esbuild": true,\r\n\t\t"sharp": true\r\n\t}\r\n}',
    );
    expect(statSync(path.join(dir, 'package.json')).mode & 0o777).toBe(0o640);
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('mine/\n');

    // Run again for a second site: every script is there (for the first), so nothing changes.
    const again = await runCli(['init', 'second'], dir);
    expect(again.stdout).toContain(
      'Left as they were: the scripts "build", "dev", "preview", "typecheck" in package.json (there already, with another command).',
    );
    expect(again.stdout).not.toContain('Added');
    // The typecheck script is the first site's: the second one's is tsc in its folder.
    expect(again.stdout).toContain(
      '\nTo type-check it: npm install -D typescript @types/react, then npx tsc in its folder.\n',
    );
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(written);
  });

  it('leaves a package.json that is not valid JSON untouched, names it, and still makes the site', async () => {
    const broken = '{ "name": "mine", }\n';
    const dir = project('broken', { 'package.json': broken });
    const result = await runCli(['init', 'my-site'], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[1]).toBe('Wrote .gitignore.');
    expect(lines[2]).toMatch(/^Left as it was: package\.json \(not valid JSON: .+\)\.$/);
    expect(lines.slice(3)).toEqual([
      'Next:',
      '  cd my-site',
      '  npx ssg dev',
      'To type-check it: npm install -D typescript @types/react, then npx tsc in its folder.',
      '',
    ]);
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(broken);
    expect(existsSync(path.join(dir, 'my-site', 'site', 'index.tsx'))).toBe(true);
  });

  it('writes a package.json with the scripts where npm left none, quoting a folder name for the shell', async () => {
    const dir = project('none');
    const result = await runCli(['init', "it's mine"], dir);
    expect(result.stdout.split('\n').slice(1)).toEqual([
      'Wrote package.json with the scripts "build", "dev", "preview", "typecheck" and "allowScripts" for "esbuild", "sharp".',
      'Wrote .gitignore.',
      'Next:',
      "  cd 'it'\\''s mine'",
      '  npm run dev',
      'To type-check it: npm install -D typescript @types/react, then npm run typecheck.',
      '',
    ]);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))).toEqual({
      scripts: {
        build: "ssg -C 'it'\\''s mine' build",
        dev: "ssg -C 'it'\\''s mine' dev",
        preview: "ssg -C 'it'\\''s mine' preview",
        typecheck: "tsc -p 'it'\\''s mine'",
      },
      allowScripts: { esbuild: true, sharp: true },
    });
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe(PROJECT_GITIGNORE);
  });
});

describe('a .gitignore there already', () => {
  it('is left as it was, and init says when it does not ignore node_modules/', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ssg-init-gitignore-'));
    try {
      for (const [name, text, said] of [
        ['plain', 'node_modules/\n', '(there already)'],
        ['rooted', '# deps\r\n/node_modules\r\n*.log\r\n', '(there already)'],
        ['anywhere', 'dist/\n**/node_modules/\n', '(there already)'],
        ['other', 'dist/\n', '(there already, and node_modules/ is not ignored by it)'],
        ['unignored', 'node_modules/\n!node_modules/\n', '(there already, and node_modules/ is not ignored by it)'],
        ['empty', '', '(there already, and node_modules/ is not ignored by it)'],
      ] as const) {
        const project = path.join(dir, name);
        mkdirSync(path.join(project, 'node_modules'), { recursive: true });
        symlinkSync(repoRoot, path.join(project, 'node_modules', 'ssg'));
        writeFileSync(path.join(project, '.gitignore'), text);
        const result = await runCli(['init', 'my-site'], project);
        expect(result.code, name).toBe(0);
        expect(result.stdout, name).toContain(`\nLeft as it was: .gitignore ${said}.\n`);
        expect(readFileSync(path.join(project, '.gitignore'), 'utf8')).toBe(text);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('allowScripts', () => {
  it('leaves an allowScripts that is there as it was, naming what it does not allow', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ssg-init-allow-'));
    try {
      for (const [name, allowScripts, said] of [
        ['partial', { esbuild: true, 'left-pad': false }, '(there already, without "sharp": true)'],
        ['denied', { 'esbuild@0.28.2': true, sharp: false }, '(there already, without "sharp": true)'],
        ['none', {}, '(there already, without "esbuild": true, "sharp": true)'],
        ['all', { 'esbuild@0.28.2': true, sharp: true }, undefined],
      ] as const) {
        const project = path.join(dir, name);
        mkdirSync(path.join(project, 'node_modules'), { recursive: true });
        symlinkSync(repoRoot, path.join(project, 'node_modules', 'ssg'));
        const manifest = `${JSON.stringify({ name, allowScripts }, null, 2)}\n`;
        writeFileSync(path.join(project, 'package.json'), manifest);
        const result = await runCli(['init', 'my-site'], project);
        expect(result.code, name).toBe(0);
        expect(result.stdout).not.toContain('Added "allowScripts"');
        if (said) expect(result.stdout).toContain(`Left as it was: "allowScripts" in package.json ${said}.`);
        else expect(result.stdout).not.toContain('"allowScripts"');
        const after = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
        expect(after.allowScripts).toEqual(allowScripts);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads an allowScripts as npm does: a name or a pinned name set to true, none set to false', () => {
    expect(allowsScripts({ esbuild: true }, 'esbuild')).toBe(true);
    expect(allowsScripts({ 'esbuild@0.28.2': true }, 'esbuild')).toBe(true);
    expect(allowsScripts({ esbuild: true, 'esbuild@0.28.2': false }, 'esbuild')).toBe(false);
    expect(allowsScripts({ esbuildx: true, esbuild: 'yes' }, 'esbuild')).toBe(false);
    expect(allowsScripts({}, 'sharp')).toBe(false);
  });

  it('any package.json object without one: allowScripts added at its end in one insertion, every other byte kept', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.constantFrom(0, 1, 2, 4, '\t'),
        fc.boolean(),
        fc.boolean(),
        (fields, indent, crlf, newline) => {
          const { allowScripts: _dropped, ...manifest } = fields;
          const json = JSON.stringify(manifest, null, indent) + (newline ? '\n' : '');
          const text = crlf ? json.replaceAll('\n', '\r\n') : json;
          const merge = addAllowScripts(text, SITE_ALLOW_SCRIPTS);
          expect(merge.ok).toBe(true);
          if (!merge.ok) return;
          const out = merge.text!;
          expect(oneInsertion(text, out)).toBe(true);
          if (text.includes('\r\n')) expect(out).not.toMatch(/[^\r]\n/);
          const after = JSON.parse(out) as Record<string, unknown>;
          // As JSON reads it back (-0 is 0).
          const before = JSON.parse(json) as Record<string, unknown>;
          expect(Object.keys(after)).toEqual([...Object.keys(before), 'allowScripts']);
          expect(after).toEqual({ ...before, allowScripts: SITE_ALLOW_SCRIPTS });
          // With one there already, nothing changes.
          expect(addAllowScripts(out, { other: true })).toEqual({
            ok: true,
            text: undefined,
            present: SITE_ALLOW_SCRIPTS,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('mergeScripts', () => {
  const scripts = siteScripts('my-site');
  const names = Object.keys(scripts);

  it('refuses what is no object of scripts, saying why', () => {
    for (const [text, reason] of [
      ['', /^not valid JSON/],
      ['{"a": 1,}', /^not valid JSON/],
      ['[]', /^not a JSON object$/],
      ['null', /^not a JSON object$/],
      ['"x"', /^not a JSON object$/],
      ['{"scripts": []}', /"scripts" is not an object/],
      ['{"scripts": "ssg dev"}', /"scripts" is not an object/],
    ] as const) {
      const merge = mergeScripts(text, scripts);
      expect(merge.ok, text).toBe(false);
      if (!merge.ok) expect(merge.reason).toMatch(reason);
    }
  });

  it('any package.json object: keeps every key and script, adds only the missing scripts, in one insertion', () => {
    const scriptName = fc.oneof(fc.constantFrom(...names, 'test', 'scripts'), fc.string());
    const layout = fc.record({
      indent: fc.constantFrom(0, 1, 2, 4, '\t'),
      crlf: fc.boolean(),
      newline: fc.boolean(),
      bom: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.option(
          fc.dictionary(scriptName, fc.oneof(fc.string(), fc.constantFrom(...Object.values(scripts)), fc.jsonValue())),
          {
            nil: undefined,
          },
        ),
        layout,
        (fields, existing, { indent, crlf, newline, bom }) => {
          const manifest = existing === undefined ? fields : { ...fields, scripts: existing };
          const json = JSON.stringify(manifest, null, indent) + (newline ? '\n' : '');
          const text = (bom ? '\uFEFF' : '') + (crlf ? json.replaceAll('\n', '\r\n') : json);
          const before = JSON.parse(json) as Record<string, unknown>;
          const present = (before.scripts ?? {}) as Record<string, unknown>;
          const merge = mergeScripts(text, scripts);
          expect(merge.ok).toBe(true);
          if (!merge.ok) return;
          const missing = names.filter((name) => !Object.hasOwn(present, name));
          expect(merge.added).toEqual(missing);
          expect(merge.kept).toEqual(
            names.filter((name) => Object.hasOwn(present, name) && present[name] !== scripts[name]),
          );
          if (missing.length === 0) return void expect(merge.text).toBeUndefined();
          const out = merge.text!;
          expect(oneInsertion(text, out)).toBe(true);
          expect(out.startsWith('\uFEFF')).toBe(bom);
          if (text.includes('\r\n')) expect(out).not.toMatch(/[^\r]\n/);
          const after = JSON.parse(out.replace(/^\uFEFF/, '')) as Record<string, unknown>;
          expect(Object.keys(after).filter((key) => key !== 'scripts')).toEqual(
            Object.keys(before).filter((key) => key !== 'scripts'),
          );
          for (const key of Object.keys(before)) if (key !== 'scripts') expect(after[key]).toEqual(before[key]);
          const merged = after.scripts as Record<string, unknown>;
          for (const name of Object.keys(present)) expect(merged[name]).toEqual(present[name]);
          for (const name of missing) expect(merged[name]).toBe(scripts[name]);
          expect(Object.keys(merged)).toEqual([...Object.keys(present), ...missing]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
