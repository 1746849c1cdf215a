import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteInbox } from '../src/inbox/inbox-sqlite.ts';
import { runCli, type TempSite } from './helpers/project.ts';
import { ServeProcess } from './helpers/serve-process.ts';
import { buildRealSite } from './helpers/site.ts';
import { freePort, startSiteverify, startSmtp } from './helpers/stand-ins.ts';

const ORIGIN = 'https://validators.example';
const message = (n: number) => ({
  name: `Visitor ${n}`,
  email: `visitor${n}@example.org`,
  subject: `Question ${n}`,
  message: `Message number ${n}.`,
  turnstileToken: `pass-${n}`,
});

describe('ssg serve', () => {
  let site: TempSite;
  let dataDir: string;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  const env = (extra: Record<string, string> = {}) => ({
    PORT: '0',
    DATA_DIR: dataDir,
    SITE_ORIGIN: ORIGIN,
    TURNSTILE_SECRET_KEY: 'serve-secret',
    TURNSTILE_VERIFY_URL: siteverify.url,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    MAIL_FROM: 'website@validators.example',
    MAIL_TO: 'inbox@validators.example',
    DELIVERY_RETRY_BASE_SECONDS: '0.2',
    DELIVERY_RETRY_MAX_SECONDS: '0.5',
    DELIVERY_POLL_SECONDS: '0.1',
    RATE_LIMIT_MAX: '1000',
    ...extra,
  });
  const send = (url: string, body: unknown) =>
    fetch(`${url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    site = await buildRealSite();
    siteverify = await startSiteverify('validators.example');
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await siteverify?.close();
    await smtp?.stop();
    await site?.dispose();
  });

  describe('static files', () => {
    let serve: ServeProcess;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'ssg-data-'));
      serve = await ServeProcess.start(site.dir, env());
    });
    afterAll(async () => {
      await serve?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('serves clean URLs and the nearest 404 page with status 404', async () => {
      expect((await fetch(`${serve.url}/about`)).status).toBe(200);
      expect(await (await fetch(`${serve.url}/about/`)).text()).toContain('<h1>');
      const missing = await fetch(`${serve.url}/news/nope`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('The article does not exist.');
    });

    it('sends long cache headers for hashed assets and short ones for HTML', async () => {
      const html = await (await fetch(`${serve.url}/`)).text();
      const css = /(?:href|data-ssg-style)="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
      expect((await fetch(serve.url + css)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${serve.url}/`)).headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
      expect((await fetch(`${serve.url}/favicon.svg`)).headers.get('cache-control')).toBe('public, max-age=3600');
    });

    it('compresses with brotli or gzip as the client accepts, and not otherwise', async () => {
      const plain = await (await fetch(`${serve.url}/networks`, { headers: { 'Accept-Encoding': 'identity' } })).text();
      const { request } = await import('node:http');
      const raw = (encoding: string) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve) => {
          request(`${serve.url}/networks`, { headers: { 'Accept-Encoding': encoding } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          }).end();
        });
      const br = await raw('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.body).toString()).toBe(plain);
      expect(br.body.length).toBeLessThan(plain.length / 3);
      const gz = await raw('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(plain);
      const none = await raw('identity');
      expect(none.headers['content-encoding']).toBeUndefined();
      const refused = await raw('br;q=0, gzip');
      expect(refused.headers['content-encoding']).toBe('gzip');
    });

    it('answers a repeated request with 304 when nothing changed', async () => {
      const first = await fetch(`${serve.url}/legal`);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"/);
      expect((await fetch(`${serve.url}/legal`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    });
  });

  describe('the contact endpoint and mail delivery', () => {
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'ssg-data-'));
    });
    afterAll(() => rm(dataDir, { recursive: true, force: true }));

    it('stores a message, answers ok, and delivers it by SMTP once', async () => {
      const serve = await ServeProcess.start(site.dir, env());
      try {
        smtp.received.length = 0;
        const response = await send(serve.url, message(1));
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ok: true });
        await expect.poll(() => smtp.received.length, { timeout: 5000 }).toBe(1);
        const mail = smtp.received[0]!;
        expect(mail.to).toEqual(['inbox@validators.example']);
        expect(mail.raw).toContain('Subject: Contact form: Question 1');
        expect(mail.raw).toMatch(/Reply-To: "?Visitor 1"? <visitor1@example\.org>/);
        expect(mail.raw).toContain('Message number 1.');
        // The client address reached siteverify.
        expect(siteverify.requests.at(-1)).toMatchObject({
          secret: 'serve-secret',
          response: 'pass-1',
          remoteip: '127.0.0.1',
        });
      } finally {
        expect(await serve.stop()).toBe(0);
      }
      const inbox = openSqliteInbox(dataDir);
      expect(inbox.list().map((m) => [m.subject, Boolean(m.deliveredAt)])).toEqual([['Question 1', true]]);
      inbox.close();
    });

    it('refuses a bad token with 403 and another origin with 403, storing nothing', async () => {
      const serve = await ServeProcess.start(site.dir, env());
      try {
        const before = openSqliteInbox(dataDir);
        const count = before.list().length;
        before.close();
        expect((await send(serve.url, { ...message(2), turnstileToken: 'expired' })).status).toBe(403);
        const foreign = await fetch(`${serve.url}/api/contact`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
          body: JSON.stringify(message(3)),
        });
        expect(foreign.status).toBe(403);
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
        const after = openSqliteInbox(dataDir);
        expect(after.list()).toHaveLength(count);
        after.close();
      } finally {
        await serve.stop();
      }
    });

    it('mail server down, then back: the message waits, then is delivered exactly once', async () => {
      await smtp.stop();
      smtp.received.length = 0;
      const serve = await ServeProcess.start(site.dir, env());
      try {
        expect((await send(serve.url, message(10))).status).toBe(200);
        await serve.waitFor(/message \d+ not delivered/);
        await serve.waitFor(/message \d+ not delivered[\s\S]*message \d+ not delivered/); // retried with backoff
        await smtp.restart();
        await expect.poll(() => smtp.received.length, { timeout: 8000 }).toBe(1);
        // Well past more retry periods: still exactly one.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0]!.raw).toContain('Message number 10.');
      } finally {
        await serve.stop();
      }
      const inbox = openSqliteInbox(dataDir);
      const stored = inbox.list().find((m) => m.subject === 'Question 10')!;
      expect(stored.deliveredAt).not.toBeNull();
      expect(stored.attempts).toBeGreaterThanOrEqual(2);
      inbox.close();
    });

    it('every message answered with 200 survives a SIGKILL in the middle of a burst', async () => {
      const killData = await mkdtemp(path.join(tmpdir(), 'ssg-kill-'));
      const serve = await ServeProcess.start(site.dir, env({ DATA_DIR: killData, SMTP_HOST: '' }));
      const acknowledged: string[] = [];
      let stop = false;
      const client = async (worker: number) => {
        for (let n = 0; !stop; n++) {
          const body = { ...message(n), subject: `burst ${worker}-${n}` };
          try {
            const response = await send(serve.url, body);
            if (response.status === 200) acknowledged.push(body.subject);
          } catch {
            return; // the server is gone
          }
        }
      };
      const clients = Array.from({ length: 8 }, (_, worker) => client(worker));
      await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(50);
      serve.child.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);
      await serve.exited;

      const restarted = await ServeProcess.start(site.dir, env({ DATA_DIR: killData, SMTP_HOST: '' }));
      await restarted.stop();
      const inbox = openSqliteInbox(killData);
      const stored = new Set(inbox.list().map((m) => m.subject));
      inbox.close();
      const lost = acknowledged.filter((subject) => !stored.has(subject));
      expect(acknowledged.length).toBeGreaterThan(50);
      expect(lost).toEqual([]);
      await rm(killData, { recursive: true, force: true });
    });

    it('limits a client with 429 and Retry-After', async () => {
      const limitData = await mkdtemp(path.join(tmpdir(), 'ssg-limit-'));
      const serve = await ServeProcess.start(
        site.dir,
        env({ DATA_DIR: limitData, RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '600', SMTP_HOST: '' }),
      );
      try {
        for (let n = 0; n < 5; n++) expect((await send(serve.url, message(n))).status).toBe(200);
        const limited = await send(serve.url, message(6));
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(590);
      } finally {
        await serve.stop();
        await rm(limitData, { recursive: true, force: true });
      }
    });

    it('stops on SIGTERM after finishing requests in flight (exit 0)', async () => {
      const serve = await ServeProcess.start(site.dir, env({ SMTP_HOST: '' }));
      siteverify.state.delayMs = 700;
      try {
        const inFlight = send(serve.url, message(20));
        await new Promise((resolve) => setTimeout(resolve, 200));
        const exit = serve.stop('SIGTERM');
        const response = await inFlight;
        expect(response.status).toBe(200);
        expect(await exit).toBe(0);
        expect(serve.output).toContain('SIGTERM: finishing requests in flight');
      } finally {
        siteverify.state.delayMs = 0;
      }
    });

    it('lists and exports the stored messages', async () => {
      const list = await runCli(['inbox', 'list', '--data-dir', dataDir], site.dir);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/#\d+ {2}\S+ {2}Visitor 1 <visitor1@example\.org> {2}"Question 1" {2}delivered /);
      const exported = await runCli(['inbox', 'export', '--json'], site.dir, { DATA_DIR: dataDir });
      expect(exported.code).toBe(0);
      const messages = JSON.parse(exported.stdout) as Array<{
        subject: string;
        message: string;
        deliveredAt: string | null;
      }>;
      expect(messages.map((m) => m.subject)).toEqual(
        expect.arrayContaining(['Question 1', 'Question 10', 'Question 20']),
      );
      const undelivered = JSON.parse(
        (await runCli(['inbox', 'export', '--json', '--undelivered'], site.dir, { DATA_DIR: dataDir })).stdout,
      );
      expect(undelivered.map((m: { subject: string }) => m.subject)).toEqual(['Question 20']);
    });
  });

  it('refuses to start without the challenge secret, naming the variable', async () => {
    const result = await runCli(['serve'], site.dir, { TURNSTILE_SECRET_KEY: '', PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TURNSTILE_SECRET_KEY is not set');
  });
});
