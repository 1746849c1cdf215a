// A save made the moment `ssg dev` first answers is rebuilt: the server answers only once the
// watcher is ready, and a save made while the first build runs is queued, not missed. Started
// many times, each saving as soon as a request succeeds, as a person (or an editor's plugin) would;
// every other time with each core kept busy by another process.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { freePort } from './helpers/stand-ins.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

/** The page's text, or undefined while nothing answers. */
const page = (url: string) =>
  fetch(url).then(
    (response) => (response.ok ? response.text() : undefined),
    () => undefined,
  );

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** Processes that keep every core busy until killed (or two minutes on, should this test die first). */
function load(): ChildProcess[] {
  const spin = 'const end = Date.now() + 120000; while (Date.now() < end) {}';
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }),
  );
}

describe('ssg dev, saved as soon as it answers', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
  });
  afterAll(async () => {
    await site?.dispose();
  });

  it('rebuilds that first save, every time', async () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const busy = attempt % 2 === 0 ? load() : [];
      const port = await freePort();
      const child = spawn(process.execPath, [cliPath, 'dev', '--port', String(port)], {
        cwd: site.dir,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const url = `http://127.0.0.1:${port}/news/first-post`;
        expect(await until(() => page(url), 60_000), `attempt ${attempt}: dev never answered\n${output}`).toBeDefined();
        const marker = `Saved at once, attempt ${attempt}.`;
        await appendFile(site.file('content/news/first-post.md'), `\n${marker}\n`);
        const rebuilt = await until(async () => ((await page(url))?.includes(marker) ? true : undefined), 15_000);
        expect(
          rebuilt,
          `attempt ${attempt}${busy.length ? ' (under load)' : ''}: the save was not rebuilt\n${output}`,
        ).toBe(true);
      } finally {
        for (const hog of busy) hog.kill('SIGKILL');
        child.kill('SIGINT');
        await exited;
      }
    }
  }, 360_000);
});
