import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatorVersion } from '../src/cli/cli.ts';
import { progressLine, progressText } from '../src/cli/progress.ts';
import { repoRoot, runCli } from './helpers/project.ts';

function fakeTerminal(isTTY: boolean) {
  const writes: string[] = [];
  let time = 0;
  return {
    stream: { isTTY, columns: 60, write: (text: string) => writes.push(text) },
    writes,
    advance: (ms: number) => (time += ms),
    now: () => time,
  };
}

describe('the progress line', () => {
  it('writes nothing at all when the output is not a terminal', () => {
    const term = fakeTerminal(false);
    const line = progressLine(term.stream, { now: term.now });
    for (let i = 0; i <= 50; i++) {
      term.advance(1000);
      line.update(i, 50);
    }
    line.clear();
    expect(term.writes).toEqual([]);
  });

  it('on a terminal: nothing for a short build, then one line redrawn in place, erased at the end', () => {
    const term = fakeTerminal(true);
    const line = progressLine(term.stream, { now: term.now, delayMs: 500, intervalMs: 100 });
    line.update(1, 40);
    expect(term.writes).toEqual([]);
    term.advance(600);
    line.update(2, 40);
    term.advance(10);
    line.update(3, 40); // within the interval: not redrawn
    term.advance(200);
    line.update(40, 40);
    line.clear();
    expect(term.writes).toEqual([
      '\r\x1b[2KConverting Markdown: 2 of 40 articles (5%)',
      '\r\x1b[2KConverting Markdown: 40 of 40 articles (100%)',
      '\r\x1b[2K',
    ]);
    expect(term.writes.join('')).not.toContain('\n');
  });

  it('never writes a line wider than the terminal or a newline, for any counts', () => {
    fc.assert(
      fc.property(fc.nat(1e7), fc.nat(1e7), fc.integer({ min: 1, max: 300 }), (done, total, columns) => {
        const text = progressText(done, total, columns);
        expect(text.length).toBeLessThan(Math.max(2, columns));
        expect(text).not.toMatch(/[\r\n]/);
      }),
    );
  });
});

describe('ssg --version', () => {
  const version = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version as string;

  it('prints the version of package.json and exits 0', async () => {
    const result = await runCli(['--version'], repoRoot);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('finds package.json from src/ and from a folder below it (the compiled copy in .cache/)', () => {
    expect(generatorVersion(path.join(repoRoot, 'src'))).toBe(version);
    expect(generatorVersion(path.join(repoRoot, '.cache', 'cli-x'))).toBe(version);
    expect(generatorVersion('/')).toBe('unknown');
  });
});
