// SIGINT and SIGTERM at random moments of a 1,000-article build, and of a build stuck in one
// article designed to be slow: the build exits within 2 s with 130 or 143, removes its staging
// folder and lock, leaves no helper process, and the previous dist/ stays whole.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { processesUsing, waitFor } from './helpers/tree.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

let site: TempSite;
let before: Map<string, string>;

/** Every file of the output folder and its contents. */
function snapshot(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), readFileSync(file, 'latin1')];
    }),
  );
}

/** What a build leaves when it does not clean up: staging and old copies, the lock, helper scripts. */
function leftovers(dir: string): string[] {
  const beside = readdirSync(dir).filter((name) => /^dist\.(tmp-|old-|lock)/.test(name));
  const cache = path.join(dir, '.cache', 'ssg');
  const helpers = existsSync(cache) ? readdirSync(cache).filter((name) => /^markdown-(helper|site)-/.test(name)) : [];
  return [...beside, ...helpers];
}

/** Starts a build, sends `signal` after `delayMs`, and says how it ended and how long after the signal. */
async function interrupted(signal: 'SIGINT' | 'SIGTERM', delayMs: number, args: string[] = []) {
  const child = spawn(process.execPath, [cliPath, 'build', ...args], {
    cwd: site.dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  // Killed by the signal itself (before Node had started the CLI) is what a shell reports as 128 + its number: 130, 143.
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code, killedBy) =>
      resolve(code ?? (killedBy ? 128 + { SIGINT: 2, SIGTERM: 15 }[killedBy as 'SIGINT']! : null)),
    ),
  );
  await Promise.race([new Promise((resolve) => setTimeout(resolve, delayMs)), exited]);
  const sentAt = Date.now();
  child.kill(signal);
  const code = await exited;
  return { code, afterSignalMs: Date.now() - sentAt, stderr };
}

beforeAll(async () => {
  site = await copySite(fixture);
  const first = await site.run(['build']);
  expect(first.code, first.stderr).toBe(0);
  before = snapshot(site.file('dist'));
  const body = 'Some *text* with a [link](https://example.com/), `code` and a list:\n\n- one\n- two\n\n'.repeat(12);
  mkdirSync(site.file('content/news/many'), { recursive: true });
  for (let index = 0; index < 1000; index++) {
    writeFileSync(
      site.file(`content/news/many/post-${index}.md`),
      `---\ntitle: Post ${index}\ndate: "2024-01-01"\n---\n${body}`,
    );
  }
}, 120_000);
afterAll(async () => {
  for (const pid of processesUsing(site.dir)) process.kill(pid, 'SIGKILL');
  await site?.dispose();
});

describe('a 1,000-article build stopped by a signal', () => {
  it('at random moments: exits within 2 s with 130 or 143, nothing left, the old dist/ whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('SIGINT' as const, 'SIGTERM' as const),
        fc.integer({ min: 0, max: 6000 }),
        async (signal, delayMs) => {
          const { code, afterSignalMs, stderr } = await interrupted(signal, delayMs);
          // The build may have finished first (the site then is the new one: nothing to compare).
          if (code === 0) {
            before = snapshot(site.file('dist'));
            return;
          }
          expect(code, stderr).toBe(EXIT[signal]);
          expect(afterSignalMs).toBeLessThan(2000);
          expect(stderr).not.toContain('Unexpected internal error');
          expect(leftovers(site.dir)).toEqual([]);
          expect(await waitFor(() => processesUsing(site.dir).length === 0, 2000), 'a helper outlived the build').toBe(
            true,
          );
          expect(snapshot(site.file('dist'))).toEqual(before);
        },
      ),
      { numRuns: 5 },
    );
  }, 300_000);

  it('stuck in an article designed to be slow: the same, within 2 s', async () => {
    writeFileSync(
      site.file('content/news/slow.md'),
      `---\ntitle: Slow\ndate: "2024-01-01"\n---\n${'*'.repeat(30_000)}x${'*'.repeat(30_000)}\n`,
    );
    try {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const child = spawn(process.execPath, [cliPath, 'build', '--article-seconds', '600'], {
          cwd: site.dir,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
        // The helpers are at work, one of them on the slow article for minutes.
        expect(
          await waitFor(
            () => processesUsing(site.file('.cache')).filter((pid) => pid !== child.pid).length >= 1,
            30_000,
            20,
          ),
        ).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const sentAt = Date.now();
        child.kill(signal);
        expect(await exited, stderr).toBe(EXIT[signal]);
        expect(Date.now() - sentAt).toBeLessThan(2000);
        expect(leftovers(site.dir)).toEqual([]);
        expect(await waitFor(() => processesUsing(site.dir).length === 0, 2000), 'a helper outlived the build').toBe(
          true,
        );
        expect(snapshot(site.file('dist'))).toEqual(before);
      }
    } finally {
      writeFileSync(site.file('content/news/slow.md'), '---\ntitle: Slow\ndate: "2024-01-01"\n---\nNo longer slow.\n');
    }
  }, 120_000);

  it('an article past its time budget fails the build by name, as a named error, the old dist/ whole', async () => {
    writeFileSync(
      site.file('content/news/slow.md'),
      `---\ntitle: Slow\ndate: "2024-01-01"\n---\n${'*'.repeat(30_000)}x${'*'.repeat(30_000)}\n`,
    );
    try {
      const started = Date.now();
      const result = await site.run(['build', '--article-seconds', '2']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(
        /\[ArticleTooSlow\] An article took too long to convert\n {2}content\/news\/slow\.md: Converting its Markdown took more than 2 s/,
      );
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(leftovers(site.dir)).toEqual([]);
      expect(snapshot(site.file('dist'))).toEqual(before);
    } finally {
      writeFileSync(site.file('content/news/slow.md'), '---\ntitle: Slow\ndate: "2024-01-01"\n---\nNo longer slow.\n');
    }
  }, 120_000);
});
