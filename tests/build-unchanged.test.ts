// A build whose inputs are all as for the last build into the same folder does nothing but say so
// (src/pipeline/unchanged.ts). These tests hold it to never skipping a build that would have made
// a different site: any edit, an output folder touched by hand, the date an article is due, a
// new day, a linked folder it cannot see into.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { inputStamp, validUntil } from '../src/pipeline/unchanged.ts';
import { projectAt } from '../src/project.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const SKIPPED = 'inputs unchanged';

describe('a build with nothing to do', () => {
  let site: TempSite;
  let first: Awaited<ReturnType<TempSite['run']>>;

  beforeAll(async () => {
    site = await copySite(fixture);
    // A front matter key that draws a warning: the skipped build must repeat it.
    await site.write(
      'content/news/first-post.md',
      (await site.read('content/news/first-post.md')).replace('excerpt:', 'summary:'),
    );
    first = await site.run(['build']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain(SKIPPED);
  });
  afterAll(() => site.dispose());

  const summaryRows = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('/'));

  it('reports the same pages and the same warnings as the build it repeats, and writes nothing', async () => {
    expect(first.stderr).toMatch(/summary/);
    const before = statSync(site.file('dist/index.html')).mtimeMs;
    const again = await site.run(['build']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(SKIPPED);
    expect(again.stdout).toContain('output unchanged, nothing written');
    expect(summaryRows(again.stdout)).toEqual(summaryRows(first.stdout));
    expect(summaryRows(again.stdout).length).toBeGreaterThan(3);
    expect(again.stderr).toBe(first.stderr);
    expect(statSync(site.file('dist/index.html')).mtimeMs).toBe(before);
  });

  it('builds in full after an edit, a touch, a new public file, a changed option or a hand-edited output', async () => {
    const steps: Array<[string, () => Promise<void> | void, string[]?]> = [
      [
        'edit an article',
        async () =>
          site.write(
            'content/news/first-post.md',
            (await site.read('content/news/first-post.md')).replace('Some *text*', 'Some *words*'),
          ),
      ],
      [
        'touch the template',
        () => utimesSync(site.file('templates/document.html'), new Date(), new Date(Date.now() + 5_000)),
      ],
      ['add a public file', () => site.write('site/public/extra.txt', 'extra')],
      ['ask for drafts', () => {}, ['--drafts']],
      ['drop the drafts again', () => {}],
      ['edit the output by hand', () => writeFileSync(site.file('dist/about.html'), 'edited by hand')],
    ];
    for (const [name, change, args = []] of steps) {
      await change();
      const result = await site.run(['build', ...args]);
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect(result.stdout, name).not.toContain(SKIPPED);
      const repeated = await site.run(['build', ...args]);
      expect(repeated.stdout, `${name}, then nothing`).toContain(SKIPPED);
    }
    expect(await site.read('dist/news/first-post.html')).toContain('<em>words</em>');
    expect(await site.read('dist/extra.txt')).toBe('extra');
    expect(await site.read('dist/about.html')).not.toBe('edited by hand');
  });

  it('builds in full once an article held back for its date is due, and on the next day', async () => {
    const now = new Date('2031-05-01T10:00:00Z');
    await site.write(
      'content/news/later.md',
      '---\ntitle: Later\ndate: "2031-05-01T12:00:00Z"\nexcerpt: Due at noon.\n---\nSoon.\n',
    );
    const run = (at: Date) => build({ root: site.dir, outDir: 'dist', now: at });
    expect((await run(now)).timings).not.toHaveProperty(SKIPPED);
    expect(await site.read('dist/index.html')).not.toContain('Later');
    expect((await run(new Date('2031-05-01T11:59:00Z'))).timings).toHaveProperty(SKIPPED);
    const due = await run(new Date('2031-05-01T12:00:00Z'));
    expect(due.timings).not.toHaveProperty(SKIPPED);
    expect(await site.read('dist/index.html')).toContain('Later');
    expect((await run(new Date('2031-05-01T23:59:00Z'))).timings).toHaveProperty(SKIPPED);
    expect((await run(new Date('2031-05-02T00:00:00Z'))).timings).not.toHaveProperty(SKIPPED);
    await site.remove('content/news/later.md');
  });

  it('never skips while an article is dated by the build (it has no date)', async () => {
    await site.write('content/news/undated.md', '---\ntitle: Undated\nexcerpt: No date.\n---\nWhen?\n');
    try {
      for (let run = 0; run < 2; run++) {
        const result = await site.run(['build']);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toContain('no date in front matter');
        expect(result.stdout).not.toContain(SKIPPED);
      }
    } finally {
      await site.remove('content/news/undated.md');
    }
  });

  it('never skips while a linked folder is among the inputs (what is in it is not listed)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ssg-linked-'));
    try {
      writeFileSync(
        path.join(outside, 'linked-post.md'),
        '---\ntitle: Linked\ndate: "2024-01-01"\nexcerpt: From a link.\n---\nOne.\n',
      );
      symlinkSync(outside, site.file('content/news/linked'));
      expect(inputStamp(projectAt(site.dir), site.file('dist'), {})).toBeUndefined();
      await site.run(['build']);
      const again = await site.run(['build']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).not.toContain(SKIPPED);
    } finally {
      await site.remove('content/news/linked');
      await rm(outside, { recursive: true, force: true });
    }
  });
  /** Runs `change` on `target` and puts its times back as `touch -r` does, to the nanosecond. */
  function keepingTimes(target: string, change: () => void): void {
    const reference = `${site.dir}.times`;
    writeFileSync(reference, '');
    execFileSync('touch', ['-r', target, reference]);
    change();
    execFileSync('touch', ['-r', reference, target]);
    rmSync(reference);
  }

  /** Overwrites a file's bytes in place (same size, same inode), as a tool writing into it does. */
  function overwriteInPlace(file: string, edit: (text: string) => string): void {
    const before = readFileSync(file, 'utf8');
    const after = edit(before);
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
    keepingTimes(file, () => {
      const handle = openSync(file, 'r+');
      writeSync(handle, after, 0);
      closeSync(handle);
    });
  }

  it('builds in full when the output was edited by hand, even keeping sizes and times, a public copy included', async () => {
    const run = () => build({ root: site.dir, outDir: 'dist' });
    await run();
    const cases: Array<[string, string, () => void]> = [
      [
        'a public file copied into the output',
        'dist/robots.txt',
        () => writeFileSync(site.file('dist/robots.txt'), 'User-agent: evil\nDisallow: /\n'),
      ],
      [
        'a page, same size and time',
        'dist/about.html',
        () => overwriteInPlace(site.file('dist/about.html'), (text) => text.replace('<h1>', '<h2>')),
      ],
      [
        'a public copy, same size and time',
        'dist/robots.txt',
        () => overwriteInPlace(site.file('dist/robots.txt'), (text) => text.replace('*', '?')),
      ],
    ];
    for (const [name, file, change] of cases) {
      const before = readFileSync(site.file(file));
      expect((await run()).timings, name).toHaveProperty(SKIPPED);
      change();
      expect(readFileSync(site.file(file)), name).not.toEqual(before);
      expect((await run()).timings, name).not.toHaveProperty(SKIPPED);
      expect(readFileSync(site.file(file)), name).toEqual(before);
    }
    // A file added, its folder's time put back: the build removes it.
    keepingTimes(site.file('dist/news'), () => writeFileSync(site.file('dist/news/planted.html'), 'planted'));
    expect((await run()).timings).not.toHaveProperty(SKIPPED);
    expect(existsSync(site.file('dist/news/planted.html'))).toBe(false);
  });

  it('builds in full when a module the site imports from outside site/ changed', async () => {
    const entry = await site.read('site/index.tsx');
    await site.write('shared/note.ts', "export const NOTE = 'first note';\n");
    await site.write(
      'site/index.tsx',
      `import { NOTE } from '../shared/note.ts';\n${entry.replace('<h1>Home</h1>', '<h1>Home {NOTE}</h1>')}`,
    );
    try {
      const run = () => build({ root: site.dir, outDir: 'dist' });
      // The first build keeps no record (the module is newer than it: the bundle may hold either version).
      await run();
      await run();
      expect((await run()).timings).toHaveProperty(SKIPPED);
      expect(await site.read('dist/index.html')).toContain('first note');
      await site.write('shared/note.ts', "export const NOTE = 'other note';\n");
      expect((await run()).timings).not.toHaveProperty(SKIPPED);
      expect(await site.read('dist/index.html')).toContain('other note');
    } finally {
      await site.write('site/index.tsx', entry);
      await site.remove('shared');
    }
  });

  it('builds in full when the clock went back (the record is of a later day)', async () => {
    const run = (at: string) => build({ root: site.dir, outDir: 'dist', now: new Date(at) });
    expect((await run('2031-05-02T10:00:00Z')).timings).not.toHaveProperty(SKIPPED);
    expect((await run('2031-05-02T11:00:00Z')).timings).toHaveProperty(SKIPPED);
    expect((await run('2031-05-01T10:00:00Z')).timings).not.toHaveProperty(SKIPPED);
  });
});

describe('the input stamp', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ssg-stamp-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const folders = ['content', 'content/news', 'site', 'site/public', 'site/public/img', 'templates'];
  const files = () =>
    folders.flatMap((folder) =>
      readdirSync(path.join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(folder, entry.name)),
    );

  type Change = { kind: string; pick: number; text: string };
  /** Applies a change to the tree; false when there was nothing to apply it to. */
  function apply({ kind, pick, text }: Change): boolean {
    const all = files();
    const target = all.length > 0 ? path.join(root, all[pick % all.length]!) : undefined;
    const folder = path.join(root, folders[pick % folders.length]!);
    switch (kind) {
      case 'add':
        writeFileSync(path.join(folder, `new-${pick}-${Date.now()}.md`), text);
        return true;
      case 'add folder':
        mkdirSync(path.join(folder, `folder-${pick}-${Date.now()}`));
        return true;
      case 'package.json':
        writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'site', note: text }));
        return true;
    }
    if (!target) return false;
    const stat = statSync(target);
    switch (kind) {
      case 'same size, same times': {
        // As `cp -p` or `rsync -a` can leave it: other bytes, the old size and modification time.
        const old = readFileSync(target);
        const changed = Buffer.from(
          old.map((byte, index) => (index === pick % Math.max(1, old.length) ? byte ^ 1 : byte)),
        );
        writeFileSync(target, old.length > 0 ? changed : 'x');
        utimesSync(target, stat.atime, stat.mtime);
        return true;
      }
      case 'append':
        writeFileSync(target, `${readFileSync(target, 'utf8')}${text}`);
        return true;
      case 'remove':
        rmSync(target);
        return true;
      case 'rename':
        renameSync(target, `${target}.renamed`);
        return true;
      case 'touch':
        utimesSync(target, stat.atime, new Date(stat.mtimeMs + 1_000));
        return true;
      case 'chmod':
        chmodSync(target, stat.mode ^ 0o040);
        return true;
    }
    return false;
  }

  it('changes with every change to any input file or folder, and only then (fast-check)', () => {
    for (const folder of folders) mkdirSync(path.join(root, folder), { recursive: true });
    writeFileSync(path.join(root, 'content/news/post.md'), '---\ntitle: Post\n---\nText.\n');
    writeFileSync(path.join(root, 'site/index.tsx'), 'export default {};\n');
    writeFileSync(path.join(root, 'templates/document.html'), '<!doctype html>');
    const project = projectAt(root);
    const stamp = () => inputStamp(project, path.join(root, 'dist'), {});
    const kinds = [
      'add',
      'add folder',
      'package.json',
      'same size, same times',
      'append',
      'remove',
      'rename',
      'touch',
      'chmod',
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom(...kinds),
            pick: fc.nat(1000),
            text: fc.string({ minLength: 1, maxLength: 20 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (changes) => {
          for (const change of changes) {
            const before = stamp();
            expect(stamp()).toBe(before);
            if (apply(change)) expect(stamp(), change.kind).not.toBe(before);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('differs by the time zone the build runs in (pages format dates in it)', () => {
    const project = projectAt(root);
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const utc = inputStamp(project, path.join(root, 'dist'), {});
      process.env.TZ = 'Pacific/Kiritimati';
      expect(inputStamp(project, path.join(root, 'dist'), {})).not.toBe(utc);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('differs by option and output folder', () => {
    const project = projectAt(root);
    const stamps = [
      inputStamp(project, path.join(root, 'dist'), {}),
      inputStamp(project, path.join(root, 'public-out'), {}),
      inputStamp(project, path.join(root, 'dist'), { drafts: true }),
      inputStamp(project, path.join(root, 'dist'), { future: true }),
      inputStamp(project, path.join(root, 'dist'), { baseUrl: 'https://example.org' }),
    ];
    expect(new Set(stamps).size).toBe(stamps.length);
  });
});

describe('how long a record holds', () => {
  it('until the next UTC midnight, or the first held-back date before it, or not at all for a date of now (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.array(fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 })),
        (now, offsets) => {
          const dates = offsets.map((offset) => now.getTime() + offset);
          const until = validUntil(now, dates);
          const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
          expect(until).toBeGreaterThanOrEqual(now.getTime());
          expect(until).toBeLessThanOrEqual(midnight);
          expect(until).toBe(Math.min(midnight, ...dates.filter((date) => date >= now.getTime())));
        },
      ),
    );
  });
});
