// Builds at the same time, and builds killed mid-way: no raw errors, no leftovers, no processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { SsgError } from '../src/errors/errors.ts';
import { cliPath, copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { processesUsing, waitFor } from './helpers/tree.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

let site: TempSite | undefined;
afterEach(async () => {
  if (site) for (const pid of processesUsing(site.dir)) process.kill(pid, 'SIGKILL');
  await site?.dispose();
  site = undefined;
});

/** What builds leave beside the output folder and in the cache when they do not clean up. */
function leftovers(dir: string): string[] {
  const beside = readdirSync(dir).filter((name) => /^dist\.(tmp-|old-|lock)/.test(name));
  const cache = path.join(dir, '.cache', 'ssg');
  const helpers = existsSync(cache) ? readdirSync(cache).filter((name) => name.startsWith('markdown-helper-')) : [];
  return [...beside, ...helpers];
}

/** Enough articles that the build converts them in helper processes and takes a while. */
function addArticles(dir: string, count: number): void {
  const body = 'Some *text* with a [link](https://example.com/) and a list:\n\n- one\n- two\n\n'.repeat(10);
  mkdirSync(path.join(dir, 'content', 'news', 'many'), { recursive: true });
  for (let index = 0; index < count; index++) {
    writeFileSync(
      path.join(dir, 'content', 'news', 'many', `post-${index}.md`),
      `---\ntitle: Post ${index}\ndate: "2024-01-01"\n---\n${body}`,
    );
  }
}

const describeProcess = (pid: number) => {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
  } catch {
    return String(pid);
  }
};

/** A dead process's pid: one that ran and ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('two builds into one folder', () => {
  it('run at once: both succeed (the second waits), one complete site, nothing left over', async () => {
    site = await copySite(fixture);
    const [first, second] = await Promise.all([site.run(['build']), site.run(['build'])]);
    for (const result of [first, second]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/ENOTEMPTY|Unexpected internal error/);
    }
    expect(leftovers(site.dir)).toEqual([]);
    expect(existsSync(site.file('dist/news/first-post.html'))).toBe(true);
  });

  it('a lock held by a running build makes the next one wait, then give up with a message', async () => {
    site = await copySite(fixture);
    writeFileSync(site.file('dist.lock'), `${process.pid}\n`);
    const warnings: string[] = [];
    const failure = await build({
      root: site.dir,
      outDir: 'dist',
      lockTimeoutMs: 300,
      warn: (message) => warnings.push(message),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SsgError);
    expect((failure as SsgError).code).toBe('OutDirLocked');
    expect(warnings.join('\n')).toContain(`another build (process ${process.pid})`);
    expect(existsSync(site.file('dist.lock'))).toBe(true); // not ours: left to its owner
  });

  it('a lock, staging folder and old copy left by killed builds are taken over and removed', async () => {
    site = await copySite(fixture);
    const dead = await deadPid();
    expect((await site.run(['build'])).code).toBe(0);
    writeFileSync(site.file('dist.lock'), `${dead}\n`);
    mkdirSync(site.file(`dist.tmp-${dead}-1`));
    writeFileSync(site.file(`dist.tmp-${dead}-1/index.html`), 'half-written');
    // Killed between the two renames of a swap: the old output sits beside, with a deploy checkout's .git.
    mkdirSync(site.file('dist/.git'));
    writeFileSync(site.file('dist/.git/HEAD'), 'gh-pages');
    renameSync(site.file('dist'), site.file(`dist.old-${dead}-2`));
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(leftovers(site.dir)).toEqual([]);
    expect(await site.read('dist/.git/HEAD')).toBe('gh-pages');
    expect(await site.read('dist/index.html')).toContain('<!doctype html>');
  });
});

describe('a build stopped mid-way', () => {
  /** Starts a build of many articles and waits until it converts them in helper processes. */
  async function startLongBuild(dir: string) {
    const child = spawn(process.execPath, [cliPath, 'build'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))),
    );
    const helpers = () => processesUsing(path.join(dir, '.cache')).filter((pid) => pid !== child.pid).length;
    // Killed while its helper processes convert: they must not outlive it.
    const busy = await waitFor(() => helpers() >= 1, 30_000, 20);
    return { child, exited, busy, stderr: () => stderr };
  }

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`${signal}: the previous site stays, no process outlives the build, the next build cleans up`, async () => {
      site = await copySite(fixture);
      expect((await site.run(['build'])).code).toBe(0);
      const before = await site.read('dist/index.html');
      addArticles(site.dir, 200);
      const running = await startLongBuild(site.dir);
      expect(running.busy, 'helpers and staging never appeared').toBe(true);
      running.child.kill(signal);
      const code = await running.exited;
      if (signal === 'SIGINT') {
        expect(code).toBe(130);
        expect(running.stderr()).toContain('Build stopped (SIGINT); nothing was swapped in.');
        expect(leftovers(site.dir)).toEqual([]); // removed on the way out
      }
      const gone = await waitFor(() => processesUsing(site!.dir).length === 0, 15_000);
      expect(
        gone,
        `left running: ${processesUsing(site.dir)
          .map((pid) => describeProcess(pid))
          .join('; ')}`,
      ).toBe(true);
      expect(await site.read('dist/index.html')).toBe(before);
      const next = await site.run(['build']);
      expect(next.code, next.stderr).toBe(0);
      expect(leftovers(site.dir)).toEqual([]);
      expect(existsSync(site.file('dist/news/post-7.html'))).toBe(true);
    }, 120_000); // two builds and a conversion of 200 articles on a shared, loaded machine
  }
});
