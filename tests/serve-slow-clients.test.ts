import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../src/server/http-server.ts';
import { listen } from '../src/server/preview.ts';
import { createStaticHandler } from '../src/server/static-server.ts';
import { DevProcess } from './helpers/dev-process.ts';
import { cliPath, copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { inBatches, rawGet, sendRaw } from './helpers/raw-http.ts';
import { serveBuiltFixture, type ServedFixture } from './helpers/serve-fixture.ts';

/** The requests of the issue that stopped the process, and their relatives. */
const NASTY = [
  '//',
  '//:99999/',
  '//[/',
  '//@',
  '//%',
  '/%5Fheaders',
  '/%',
  '/%00',
  `/${'a/'.repeat(2000)}`,
  'http://x/',
];

function openIdle(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Resolves with what the server sent and how long it kept the connection, bounded by `timeoutMs`. */
function closedWithin(socket: Socket, timeoutMs: number): Promise<{ received: string; closed: boolean }> {
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ received, closed: false }), timeoutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closed: true });
    });
  });
}

describe('ssg serve and slow or many clients', () => {
  let fixture: ServedFixture;
  beforeAll(async () => {
    fixture = await serveBuiltFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('cuts off clients that send nothing or drip their headers (408), serving others meanwhile', async () => {
    const silent = await openIdle(fixture.port);
    const dripping = await openIdle(fixture.port);
    dripping.write('GET / HTTP/1.1\r\nHost: a\r\n');
    // One header line every 200 ms, never the blank line that ends them (at most 200 of them).
    let lines = 0;
    const drip = setInterval(() => {
      if (dripping.destroyed || (lines += 1) > 200) clearInterval(drip);
      else dripping.write(`X-Drip-${lines}: y\r\n`);
    }, 200);
    const idle = await Promise.all(Array.from({ length: 300 }, () => openIdle(fixture.port)));
    // Headers time-out (10 s) plus Node's check interval, with room for a loaded machine.
    const outcomes = Promise.all([closedWithin(silent, 30_000), closedWithin(dripping, 30_000)]);
    const during = await inBatches(
      Array.from({ length: 20 }, () => '/'),
      4,
      (page) => sendRaw(fixture.port, rawGet(page)),
    );
    expect(during.map((exchange) => exchange.status)).toEqual(Array(20).fill(200));
    const [silentOutcome, drippingOutcome] = await outcomes;
    clearInterval(drip);
    for (const socket of idle) socket.destroy();
    expect(silentOutcome.closed).toBe(true);
    expect(drippingOutcome.closed).toBe(true);
    expect(drippingOutcome.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(fixture.serve.child.exitCode).toBeNull();
  }, 60_000);

  it('answers 431 to headers too large, and keeps serving', async () => {
    const huge = await sendRaw(fixture.port, rawGet('/', { 'X-Big': 'y'.repeat(64 * 1024) }));
    expect(huge.status).toBe(431);
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`X-H${index}`, 'v']));
    expect((await sendRaw(fixture.port, rawGet('/', many))).status).toBe(431);
    expect((await sendRaw(fixture.port, rawGet('/'))).status).toBe(200);
  });
});

describe('the shared request guard', () => {
  it('answers 500 when a handler throws at once or later, and keeps serving', async () => {
    const site = path.join(repoRoot, 'tests', 'fixtures', 'basic', 'site', 'public');
    const logged: string[] = [];
    const serveStatic = createStaticHandler(site, {
      headers: (sitePath) => {
        if (sitePath === '/robots.txt') throw new Error('headers failed');
        return {};
      },
    });
    const server = createHttpServer(
      (request, response) => {
        if (request.url === '/at-once') throw new Error('listener failed');
        return serveStatic(request, response);
      },
      { log: (line) => logged.push(line) },
    );
    const url = await listen(server, 0, '127.0.0.1');
    const port = Number(new URL(url).port);
    try {
      expect((await sendRaw(port, rawGet('/at-once'))).status).toBe(500);
      expect((await sendRaw(port, rawGet('/robots.txt'))).status).toBe(500);
      expect((await sendRaw(port, rawGet('//'))).status).not.toBe(500);
      expect(logged.join('\n')).toMatch(/GET \/at-once: Error: listener failed/);
      expect(logged.join('\n')).toMatch(/GET \/robots\.txt: Error: headers failed/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('preview and dev share the static handler, and survive the same requests', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    expect((await site.run(['build'])).code).toBe(0);
  });
  afterAll(async () => {
    await site?.dispose();
  });

  async function expectSurvives(port: number, isRunning: () => boolean) {
    for (const target of NASTY) {
      const exchange = await sendRaw(port, rawGet(target), { timeoutMs: 15_000 });
      expect(exchange.statusLine, target).toBeDefined();
      expect(exchange.status, target).not.toBe(500);
    }
    expect((await sendRaw(port, rawGet('/', { Host: '[' }))).status).toBe(400);
    expect((await sendRaw(port, 'CONNECT x:1 HTTP/1.1\r\nHost: x:1\r\n\r\n')).status).toBe(405);
    expect(isRunning()).toBe(true);
    expect((await sendRaw(port, rawGet('/'))).status).toBe(200);
  }

  it('ssg preview', async () => {
    const child = spawn(process.execPath, [cliPath, 'preview', '--port', '0'], {
      cwd: site.dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`preview exited ${code}: ${output}`)));
      });
      await expectSurvives(Number(new URL(url).port), () => child.exitCode === null);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('ssg dev', async () => {
    const dev = await DevProcess.start(site.dir);
    try {
      await expectSurvives(Number(new URL(dev.url).port), () => dev.child.exitCode === null);
    } finally {
      dev.child.kill('SIGTERM');
      await dev.exited;
    }
  }, 60_000);
});
