// Articles designed to hurt, generated (fast-check): deeply nested lists, quotes, HTML, emphasis
// and brackets, oversized bodies, front matter nested deep or expanding aliases, in YAML, TOML and
// JSON. Each build ends within its budget, exits 0 or 1, names the file when it fails, never prints
// an internal error or V8's report, and a failed build leaves the previous output whole.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { processesUsing } from './helpers/tree.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const FILE = 'content/news/hostile.md';
/** The budget of one article in these builds, and what a build may take beyond it (start-up, the rest of the site). */
const SECONDS = 4;
const SLACK_MS = 25_000;

let site: TempSite;
let before: Map<string, string>;

function snapshot(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => [
      path.relative(dir, path.join(entry.parentPath, entry.name)),
      readFileSync(path.join(entry.parentPath, entry.name), 'latin1'),
    ]),
  );
}

beforeAll(async () => {
  site = await copySite(fixture);
  const first = await site.run(['build']);
  expect(first.code, first.stderr).toBe(0);
  before = snapshot(site.file('dist'));
}, 60_000);
afterAll(async () => {
  for (const pid of processesUsing(site.dir)) process.kill(pid, 'SIGKILL');
  await site?.dispose();
});

/** A body nested `depth` deep, of one kind. */
const nested = (kind: string, deep: number): string => {
  // Indented lists grow with the square of their depth: 1,500 levels are 2 MB already.
  const depth = kind === 'list' || kind === 'ordered' ? Math.min(deep, 1500) : deep;
  switch (kind) {
    case 'list':
      return Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n');
    case 'ordered':
      return Array.from({ length: depth }, (_, level) => `${'   '.repeat(level)}1. item`).join('\n');
    case 'quote':
      return `${'>'.repeat(depth)} deep`;
    case 'inline list':
      return `${'- '.repeat(depth)}x`;
    case 'mixed':
      return `${'> - '.repeat(depth)}x`;
    case 'html':
      return `${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}`;
    case 'emphasis':
      return `${'*'.repeat(depth)}x${'*'.repeat(depth)}`;
    case 'brackets':
      return `${'['.repeat(depth)}x${']'.repeat(depth)}`;
    case 'links':
      return `${'[a]('.repeat(depth)}x${')'.repeat(depth)}`;
    default:
      return `${'_'.repeat(depth)}x`;
  }
};

/** What to write, described (a counterexample stays short): a body and a front matter. */
const body = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      'list',
      'ordered',
      'quote',
      'inline list',
      'mixed',
      'html',
      'emphasis',
      'brackets',
      'links',
      'underscores',
    ),
    depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 200, max: 40_000 })),
  }),
  // Oversized: around the 1 MiB limit, of plain prose or of link references.
  fc.record({ kind: fc.constantFrom('prose', 'references'), kb: fc.integer({ min: 200, max: 1300 }) }),
);
const frontMatter = fc.record({
  kind: fc.constantFrom('plain', 'yaml', 'toml', 'json', 'aliases'),
  depth: fc.integer({ min: 2, max: 20_000 }),
});

function bodyText(spec: { kind: string; depth?: number; kb?: number }): string {
  if (spec.kind === 'prose') return 'Words of an article, long enough. '.repeat(Math.ceil((spec.kb! * 1024) / 34));
  if (spec.kind === 'references')
    return Array.from(
      { length: Math.ceil((spec.kb! * 1024) / 48) },
      (_, n) => `[r${n}]: https://example.com/${n}\n[r${n}]`,
    ).join('\n');
  return nested(spec.kind, spec.depth!);
}

/** Front matter: plain, nested deep (YAML, TOML, JSON), or expanding aliases (levels of nine). */
function frontMatterText({ kind, depth }: { kind: string; depth: number }): string {
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  switch (kind) {
    case 'yaml':
      return `---\ntitle: Hostile\ndate: "2024-01-01"\nextra: ${deep}\n---\n`;
    case 'toml':
      return `+++\ntitle = "Hostile"\nextra = ${deep}\n+++\n`;
    case 'json':
      return `{\n"title": "Hostile",\n"extra": ${deep}\n}\n`;
    case 'aliases': {
      const levels = 2 + (depth % 8);
      const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
      for (let level = 1; level < levels; level++)
        lines.push(
          `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9)
            .fill(`*${String.fromCharCode(96 + level)}`)
            .join(', ')}]`,
        );
      return `---\ntitle: Hostile\n${lines.join('\n')}\n---\n`;
    }
    default:
      return '---\ntitle: Hostile\ndate: "2024-01-01"\n---\n';
  }
}

describe('articles designed to hurt (fast-check)', () => {
  it('end within the budget with exit 0 or 1, a named error naming the file, the previous output whole', async () => {
    await fc.assert(
      fc.asyncProperty(frontMatter, body, async (head, text) => {
        writeFileSync(site.file(FILE), frontMatterText(head) + bodyText(text));
        const started = Date.now();
        const result = await site.run(['build', '--article-seconds', String(SECONDS)]);
        const elapsed = Date.now() - started;
        expect(elapsed, 'the build outlived its budget').toBeLessThan(SECONDS * 1000 + SLACK_MS);
        expect([0, 1], result.stderr.slice(0, 2000)).toContain(result.code);
        expect(result.stderr.slice(0, 4000)).not.toMatch(
          /Unexpected internal error|Last few GCs|FATAL ERROR|Maximum call stack/,
        );
        if (result.code === 1) {
          expect(result.stderr).toMatch(/\n\[[A-Z][A-Za-z]+\] /);
          expect(result.stderr).toContain(FILE);
          expect(snapshot(site.file('dist'))).toEqual(before);
        } else {
          before = snapshot(site.file('dist'));
        }
      }),
      { numRuns: 14 },
    );
  }, 900_000);

  it('leave no helper process behind', () => {
    rmSync(site.file(FILE), { force: true });
    expect(processesUsing(site.dir)).toEqual([]);
  });
});
