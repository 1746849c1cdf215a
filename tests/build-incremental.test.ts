// The CI case: builds that keep `.cache/` and the output folder carry unchanged files over from
// the previous output (hard links) and write only what changed; whatever the sequence of edits,
// each build's output is byte for byte what a cold build of the same sources writes.
import { lstatSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../src/output/output-file.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

async function distBytes(site: TempSite): Promise<Map<string, Buffer>> {
  const files = await listFiles(site.file('dist'));
  return new Map(files.map((file) => [file, readFileSync(site.file(`dist/${file}`))]));
}

async function build(site: TempSite): Promise<string> {
  const result = await site.run(['build']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** The site's sources copied into a fresh folder (no .cache, no dist) and built cold. */
async function coldBuildOf(site: TempSite): Promise<Map<string, Buffer>> {
  const cold = await copySite(site.dir, ['dist', 'node_modules', '.cache']);
  try {
    await build(cold);
    return await distBytes(cold);
  } finally {
    await cold.dispose();
  }
}

function expectSame(actual: Map<string, Buffer>, expected: Map<string, Buffer>, label: string): void {
  expect([...actual.keys()].sort(), label).toEqual([...expected.keys()].sort());
  for (const [file, bytes] of expected) expect(actual.get(file)!.equals(bytes), `${label}: ${file}`).toBe(true);
}

type Edit = { name: string; apply: (site: TempSite) => void };

const article = (title: string, body: string, date = '2024-03-03') =>
  `---\ntitle: ${title}\ndate: "${date}"\ntags: [Alpha]\n---\n${body}\n`;

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constantFrom('Red', 'Green', 'Blue').map((word) => ({
    name: `edit first-post's body (${word})`,
    apply: (site: TempSite) =>
      writeFileSync(
        site.file('content/news/first-post.md'),
        `${readFileSync(site.file('content/news/first-post.md'), 'utf8').trimEnd()}\n\n${word} words.\n`,
      ),
  })),
  fc.constantFrom('One', 'Two').map((title) => ({
    name: `edit first-post's title (${title})`,
    apply: (site: TempSite) =>
      writeFileSync(site.file('content/news/first-post.md'), article(title, 'Body.', '2024-01-01')),
  })),
  fc.integer({ min: 1, max: 3 }).map((n) => ({
    name: `write new-${n}`,
    apply: (site: TempSite) =>
      writeFileSync(site.file(`content/news/new-${n}.md`), article(`New ${n}`, `New body ${n}.`, `2024-02-0${n}`)),
  })),
  fc.integer({ min: 1, max: 3 }).map((n) => ({
    name: `delete new-${n}`,
    apply: (site: TempSite) => rmSync(site.file(`content/news/new-${n}.md`), { force: true }),
  })),
  fc.constantFrom('a', 'b').map((text) => ({
    name: `public file (${text})`,
    apply: (site: TempSite) => writeFileSync(site.file('site/public/note.txt'), text),
  })),
);

describe('incremental builds, .cache and the output kept', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
    await build(site);
  }, 60_000);
  afterAll(() => site?.dispose());

  it('after one edit, unchanged files are carried over as links to the previous ones; changed ones are new', async () => {
    const before = new Map(
      (await listFiles(site.file('dist'))).map((file) => [file, statSync(site.file(`dist/${file}`)).ino]),
    );
    writeFileSync(
      site.file('content/news/first-post.md'),
      `${readFileSync(site.file('content/news/first-post.md'), 'utf8').trimEnd()}\n\nOne more line.\n`,
    );
    await build(site);
    const after = await listFiles(site.file('dist'));
    const carried = after.filter((file) => before.get(file) === statSync(site.file(`dist/${file}`)).ino);
    expect(carried.length).toBeGreaterThan(after.length / 2);
    expect(carried).not.toContain('news/first-post.html');
    // A carried file is the only name of its bytes once the old output is gone, but for a page's
    // entry in the page cache, which is the page's file under a second name.
    const pageEntries = new Set(
      readdirSync(site.file('.cache/ssg/pages')).map((name) => statSync(site.file(`.cache/ssg/pages/${name}`)).ino),
    );
    for (const file of carried) {
      const stat = lstatSync(site.file(`dist/${file}`));
      expect(stat.nlink, file).toBe(pageEntries.has(stat.ino) ? 2 : 1);
    }
    expectSame(await distBytes(site), await coldBuildOf(site), 'after one edit');
  }, 60_000);

  it('a file changed by hand in the output is written anew, never carried', async () => {
    writeFileSync(site.file('dist/about.html'), 'changed by hand');
    writeFileSync(
      site.file('content/news/first-post.md'),
      `${readFileSync(site.file('content/news/first-post.md'), 'utf8').trimEnd()}\n\nAnd another.\n`,
    );
    await build(site);
    expect(readFileSync(site.file('dist/about.html'), 'utf8')).not.toBe('changed by hand');
    expectSame(await distBytes(site), await coldBuildOf(site), 'after a hand edit');
  }, 60_000);

  it('property: after any sequence of edits, each build is byte for byte a cold build of the same sources', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        for (const step of edits) {
          step.apply(site);
          await build(site);
          expectSame(await distBytes(site), await coldBuildOf(site), step.name);
        }
      }),
      { numRuns: 4 },
    );
  }, 300_000);
});

describe('where links cannot be made', () => {
  it('every page of the output changed by hand: nothing is carried, everything is written', async () => {
    const site = await copySite(fixture);
    try {
      await build(site);
      // Every file of the output changed by hand: the manifest no longer speaks for any of them.
      for (const file of readdirSync(site.file('dist'), { recursive: true, encoding: 'utf8' })) {
        const full = site.file(`dist/${file}`);
        if (statSync(full).isFile() && file.endsWith('.html')) writeFileSync(full, `${readFileSync(full, 'utf8')} `);
      }
      writeFileSync(site.file('content/news/first-post.md'), article('Changed', 'Changed body.', '2024-01-01'));
      await build(site);
      expectSame(await distBytes(site), await coldBuildOf(site), 'after every page was touched');
    } finally {
      await site.dispose();
    }
  }, 60_000);
});

describe("the company site's tag and list pages, .cache and the output kept", () => {
  it('after tags change, an article is added or one is removed, every page is a cold build’s', async () => {
    const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
    try {
      const tagged = (n: number, tags: string[]) =>
        `---\ntitle: Story ${n}\ndate: "2024-05-${String(n).padStart(2, '0')}"\ntags: ${JSON.stringify(tags)}\n---\nBody ${n}.\n`;
      for (let n = 1; n <= 24; n++)
        writeFileSync(site.file(`content/news/story-${n}.md`), tagged(n, n % 2 ? ['Celo', 'Staking'] : ['Staking']));
      await build(site);
      const steps: Array<[string, () => void]> = [
        [
          'a tag removed and another added',
          () => writeFileSync(site.file('content/news/story-3.md'), tagged(3, ['Gnosis'])),
        ],
        // Story 24 was on no page of Celo's: only the tags of every article say it now belongs there.
        [
          'a tag added to an article no page of that tag showed',
          () => writeFileSync(site.file('content/news/story-24.md'), tagged(24, ['Staking', 'Celo'])),
        ],
        [
          'a body edited',
          () => writeFileSync(site.file('content/news/story-5.md'), `${tagged(5, ['Celo', 'Staking'])}\nMore.\n`),
        ],
        ['an article added', () => writeFileSync(site.file('content/news/story-25.md'), tagged(25, ['Celo']))],
        ['an article removed', () => rmSync(site.file('content/news/story-2.md'))],
      ];
      for (const [name, apply] of steps) {
        apply();
        await build(site);
        expectSame(await distBytes(site), await coldBuildOf(site), name);
      }
    } finally {
      await site.dispose();
    }
  }, 240_000);
});

describe('the staged output carrying files over', () => {
  it('a file whose copy in the output changed after the check is written from its contents, asked for only then', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { createStagedOutput } = await import('../src/output/output.ts');
    const { outputHash } = await import('../src/output/output-file.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'ssg-carry-'));
    try {
      const outDir = path.join(dir, 'out');
      const publicDir = path.join(dir, 'public');
      const manifestFile = path.join(dir, 'manifest.bin');
      let staged = await createStagedOutput(outDir, publicDir, { manifestFile });
      staged.write({ path: 'a.txt', contents: 'A' });
      staged.write({ path: 'b.txt', contents: 'B' });
      expect(await staged.commit()).toBe(true);

      staged = await createStagedOutput(outDir, publicDir, { manifestFile });
      expect(staged.carries('a.txt', outputHash('A'))).toBe(true);
      expect(staged.carries('a.txt', outputHash('other'))).toBe(false);
      // Changed behind the build's back, after it found the folder intact.
      writeFileSync(path.join(outDir, 'a.txt'), 'changed');
      let asked = 0;
      staged.write({ path: 'b.txt', contents: 'B2' });
      staged.write({
        path: 'a.txt',
        hash: outputHash('A'),
        get contents() {
          asked++;
          return 'A';
        },
      });
      expect(await staged.commit()).toBe(true);
      expect(readFileSync(path.join(outDir, 'a.txt'), 'utf8')).toBe('A');
      expect(readFileSync(path.join(outDir, 'b.txt'), 'utf8')).toBe('B2');
      expect(asked).toBe(1);

      // Unchanged since: carried, its contents never asked for.
      staged = await createStagedOutput(outDir, publicDir, { manifestFile });
      staged.write({ path: 'b.txt', contents: 'B3' });
      staged.write({
        path: 'a.txt',
        hash: outputHash('A'),
        get contents(): string {
          throw new Error('read although it could be carried');
        },
      });
      expect(await staged.commit()).toBe(true);
      expect(readFileSync(path.join(outDir, 'a.txt'), 'utf8')).toBe('A');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a site's drawn files (share cards) are carried over after an edit elsewhere, and come out as a cold build's", async () => {
    const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
    try {
      for (let n = 1; n <= 3; n++)
        writeFileSync(
          site.file(`content/news/card-${n}.md`),
          `---\ntitle: Card ${n}\ndate: "2024-06-0${n}"\n---\nBody ${n}.\n`,
        );
      await build(site);
      const inode = (file: string) => statSync(site.file(`dist/${file}`)).ino;
      const before = { one: inode('news/card-1.png'), two: inode('news/card-2.png') };
      writeFileSync(
        site.file('content/news/card-2.md'),
        `---\ntitle: Card two, renamed\ndate: "2024-06-02"\n---\nBody 2.\n`,
      );
      await build(site);
      expect(inode('news/card-1.png')).toBe(before.one);
      expect(inode('news/card-2.png')).not.toBe(before.two);
      expectSame(await distBytes(site), await coldBuildOf(site), 'after a title edit');
    } finally {
      await site.dispose();
    }
  }, 120_000);
});
