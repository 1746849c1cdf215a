import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rename, rm, truncate, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBatches, openFileCount, rawGet, sendRaw, waitUntil } from './helpers/raw-http.ts';
import { serveBuiltFixture, type ServedFixture } from './helpers/serve-fixture.ts';

const BIG_BYTES = 32 * 1024 * 1024;

interface Download {
  contentLength: number;
  body: Buffer;
  status: number;
}

/**
 * Sends `request` over a raw connection and downloads the answer, pausing after the first chunk while `meanwhile` runs
 * (the file changes under the server), then reads to the end. Bounded by `timeoutMs`.
 */
function downloadWithPause(
  port: number,
  request: string,
  meanwhile: () => Promise<void>,
  timeoutMs = 30_000,
): Promise<Download> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let paused = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`download hung: ${request}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (paused) return;
      paused = true;
      socket.pause();
      meanwhile().then(() => socket.resume(), reject);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.subarray(0, split).toString('latin1');
      resolve({
        status: Number(head.slice(9, 12)),
        contentLength: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]),
        body: raw.subarray(split + 4),
      });
    });
    socket.write(request);
  });
}

/** Opens a download of `path` and drops the connection: at once, or after the first bytes of the answer. */
function abortedDownload(port: number, request: string, when: 'at-once' | 'after-first-bytes'): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write(request);
      if (when === 'at-once') socket.destroy();
    });
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('ssg serve under faults: aborted downloads, files changing mid-read', () => {
  let fixture: ServedFixture;
  let original: Buffer;

  beforeAll(async () => {
    original = randomBytes(BIG_BYTES);
    fixture = await serveBuiltFixture(async (site) => {
      await writeFile(site.file('dist/big.bin'), original);
      await writeFile(site.file('dist/big.txt'), 'line of text\n'.repeat(200_000));
      execFileSync('mkfifo', [site.file('dist/pipe.txt')]);
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('keeps its open file count flat over thousands of aborted downloads of a large file', async () => {
    const pid = fixture.serve.child.pid!;
    // Warm up (compressed-body cache, lazy modules), then take the baseline.
    await sendRaw(fixture.port, rawGet('/big.txt', { 'Accept-Encoding': 'br' }), { untilClose: true });
    await sendRaw(fixture.port, rawGet('/big.bin'), { untilClose: true });
    const baseline = await openFileCount(pid);
    const requests = [
      rawGet('/big.bin'),
      rawGet('/big.bin', { Range: 'bytes=1000-' }),
      rawGet('/big.txt', { 'Accept-Encoding': 'gzip, br' }),
      rawGet('/news/nope'),
      `HEAD /big.bin HTTP/1.1\r\nHost: a\r\n\r\n`,
    ];
    const runs = Array.from({ length: 2500 }, (_, index) => index);
    await inBatches(runs, 16, (index) =>
      abortedDownload(
        fixture.port,
        requests[index % requests.length]!,
        index % 3 === 0 ? 'at-once' : 'after-first-bytes',
      ),
    );
    // Connections close asynchronously on the server's side: wait for the count to settle.
    const settled = await waitUntil(async () => (await openFileCount(pid)) <= baseline + 4, 15_000);
    expect(settled, `open files: ${await openFileCount(pid)}, baseline ${baseline}`).toBe(true);
    expect((await sendRaw(fixture.port, rawGet('/'))).status).toBe(200);
  }, 60_000);

  it('finishes or cuts a download whose file is deleted mid-read, then answers 404', async () => {
    const download = await downloadWithPause(fixture.port, rawGet('/big.bin'), () =>
      rm(fixture.site.file('dist/big.bin')),
    );
    expect(download.status).toBe(200);
    expect(download.contentLength).toBe(BIG_BYTES);
    // An open file stays readable after it is deleted: the client gets all of it, as it was.
    expect(download.body.equals(original)).toBe(true);
    expect((await sendRaw(fixture.port, rawGet('/big.bin'))).status).toBe(404);
    await writeFile(fixture.site.file('dist/big.bin'), original);
  });

  it('serves the old file to a download under way when it is replaced, the new one afterwards', async () => {
    const replacement = Buffer.from('the new version\n');
    const download = await downloadWithPause(fixture.port, rawGet('/big.bin'), async () => {
      await writeFile(fixture.site.file('dist/big.bin.new'), replacement);
      await rename(fixture.site.file('dist/big.bin.new'), fixture.site.file('dist/big.bin'));
    });
    expect(download.body.equals(original)).toBe(true);
    const after = await sendRaw(fixture.port, rawGet('/big.bin'), { untilClose: true });
    expect(after.received.toString('latin1').endsWith('\r\n\r\nthe new version\n')).toBe(true);
    await writeFile(fixture.site.file('dist/big.bin'), original);
  });

  it('cuts the connection when a file is truncated mid-read, never passing a short body for a whole one', async () => {
    // Two requests on one keep-alive connection: a short first body must not be followed by the
    // second answer, which the client would take for the rest of the file.
    const pipelined = rawGet('/big.bin', { Connection: 'keep-alive' }) + rawGet('/robots.txt');
    const download = await downloadWithPause(fixture.port, pipelined, () =>
      truncate(fixture.site.file('dist/big.bin'), 1000),
    );
    expect(download.contentLength).toBe(BIG_BYTES);
    expect(download.body.length).toBeLessThan(BIG_BYTES);
    expect(download.body.includes('HTTP/1.1 200')).toBe(false);
    const after = await sendRaw(fixture.port, rawGet('/big.bin'), { untilClose: true });
    expect(after.received.toString('latin1')).toMatch(/\r\ncontent-length: 1000\r\n/i);
    expect(fixture.serve.output).not.toMatch(/Unexpected internal error/);
  });

  it('answers a FIFO in the site with 404 instead of waiting on it', async () => {
    const exchange = await sendRaw(fixture.port, rawGet('/pipe.txt'), { timeoutMs: 10_000 });
    expect(exchange.status).toBe(404);
    expect((await sendRaw(fixture.port, rawGet('/'))).status).toBe(200);
  });
});

describe('ssg serve while a build swaps its folder in', () => {
  let fixture: ServedFixture;
  beforeAll(async () => {
    fixture = await serveBuiltFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('answers every request with the page, before or after each swap', async () => {
    const statuses = new Map<string, number[]>([
      ['/', []],
      ['/about', []],
      ['/news/first-post', []],
    ]);
    let building = true;
    const requester = async () => {
      for (let sent = 0; building && sent < 20_000; sent += 1) {
        const path = [...statuses.keys()][sent % statuses.size]!;
        const exchange = await sendRaw(fixture.port, rawGet(path), { timeoutMs: 15_000 });
        statuses.get(path)!.push(exchange.status ?? 0);
      }
    };
    const builds: Array<{ code: number | null; stdout: string }> = [];
    const builder = async () => {
      const deadline = Date.now() + 40_000;
      try {
        for (let round = 1; round <= 4 && Date.now() < deadline; round += 1) {
          const article = await fixture.site.read('content/news/first-post.md');
          await fixture.site.write(
            'content/news/first-post.md',
            article.replace(/^title: .*$/m, `title: Hello, round ${round}`),
          );
          builds.push(await fixture.site.run(['build']));
        }
      } finally {
        building = false;
      }
    };
    await Promise.all([builder(), requester(), requester(), requester()]);
    for (const build of builds) expect(build.code, build.stdout).toBe(0);
    expect(builds.length).toBeGreaterThanOrEqual(2);
    expect(builds.every((build) => !/output unchanged/.test(build.stdout))).toBe(true);
    for (const [path, seen] of statuses) {
      expect(seen.length, path).toBeGreaterThan(0);
      expect(
        seen.filter((status) => status !== 200),
        path,
      ).toEqual([]);
    }
    expect(await (await fetch(`${fixture.serve.url}/`)).text()).toContain('Hello, round');
  }, 60_000);
});
