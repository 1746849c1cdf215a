// `ssg serve` as a process against a faulty inbox and mail server: nothing answered 200 is lost,
// the inbox never holds up a page, and shutdown keeps to its time-out.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readInbox } from '../src/inbox/inbox-sqlite.ts';
import { SMTP_TIMEOUTS } from '../src/inbox/mail.ts';
import { runCli } from './helpers/project.ts';
import { ServeProcess } from './helpers/serve-process.ts';
import { messageIdIn, startStallingSmtp, type StallingSmtp } from './helpers/stalling-smtp.ts';
import { startSiteverify } from './helpers/stand-ins.ts';

const ORIGIN = 'https://validators.example';
const inquiry = (n: number) => ({
  name: `Visitor ${n}`,
  email: `v${n}@example.org`,
  subject: `Question ${n}`,
  message: 'Hello',
  turnstileToken: `pass-${n}`,
});

let root: string;
let siteDir: string;
let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
let smtp: StallingSmtp;
const running: ServeProcess[] = [];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'ssg-durability-'));
  siteDir = path.join(root, 'site');
  mkdirSync(siteDir);
  writeFileSync(path.join(siteDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>Home</title><h1>Home</h1>');
  siteverify = await startSiteverify('validators.example');
  smtp = await startStallingSmtp();
});
afterEach(async () => {
  for (const serve of running.splice(0)) await serve.stop('SIGKILL');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  smtp.state.mode = 'answer';
  smtp.received.length = 0;
});
afterAll(async () => {
  await smtp?.close();
  await siteverify?.close();
  rmSync(root, { recursive: true, force: true });
});

function newDataDir(): string {
  return mkdtempSync(path.join(root, 'data-'));
}
function env(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    SITE_DIR: siteDir,
    DATA_DIR: dataDir,
    SITE_ORIGIN: ORIGIN,
    TURNSTILE_SECRET_KEY: 'secret',
    TURNSTILE_VERIFY_URL: siteverify.url,
    RATE_LIMIT_MAX: '1000',
    DELIVERY_RETRY_BASE_SECONDS: '0.2',
    DELIVERY_RETRY_MAX_SECONDS: '0.5',
    DELIVERY_POLL_SECONDS: '0.1',
    ...extra,
  };
}
const withSmtp = () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MAIL_TO: 'office@validators.example' });
async function start(dataDir: string, extra: Record<string, string> = {}): Promise<ServeProcess> {
  const serve = await ServeProcess.start(root, env(dataDir, extra));
  running.push(serve);
  return serve;
}
const post = (serve: ServeProcess, body: object) =>
  fetch(`${serve.url}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    body: JSON.stringify(body),
  });
async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const begun = Date.now();
  const value = await work;
  return { value, ms: Date.now() - begun };
}
async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the inbox file under faults', () => {
  it('answers /robots.txt while another process holds the inbox locked, and 503 for the message', async () => {
    const dataDir = newDataDir();
    const serve = await start(dataDir);
    const holder = new Database(path.join(dataDir, 'inbox.sqlite'));
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    const pending = post(serve, inquiry(1));
    // Ask for the page a few times while the message waits on the lock (busy time-out 5 s).
    for (let i = 0; i < 5; i++) {
      const { value, ms } = await timed(fetch(`${serve.url}/robots.txt`));
      expect(value.status).toBe(200);
      expect(ms).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const response = await pending;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'storage_failed' });
    holder.exec('ROLLBACK');
    expect((await post(serve, inquiry(2))).status).toBe(200);
    expect(readInbox(dataDir).map((m) => m.subject)).toEqual(['Question 2']);
  }, 30_000);

  it('answers 503, not 200, once the inbox file was deleted or replaced', async () => {
    const dataDir = newDataDir();
    const serve = await start(dataDir);
    expect((await post(serve, inquiry(1))).status).toBe(200);
    unlinkSync(path.join(dataDir, 'inbox.sqlite'));
    const response = await post(serve, inquiry(2));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'storage_failed' });
    expect((await fetch(`${serve.url}/robots.txt`)).status).toBe(200);

    const replaced = newDataDir();
    const second = await start(replaced);
    expect((await post(second, inquiry(3))).status).toBe(200);
    const stranger = newDataDir();
    new Database(path.join(stranger, 'inbox.sqlite')).close();
    spawnSync('mv', [path.join(stranger, 'inbox.sqlite'), path.join(replaced, 'inbox.sqlite')]);
    expect((await post(second, inquiry(4))).status).toBe(503);
  }, 30_000);

  it('answers 503 on a full disk and 200 again once there is room (tmpfs)', async (context) => {
    const mountPoint = mkdtempSync(path.join(root, 'tmpfs-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
    if (mounted.status !== 0) {
      context.skip(`mounting a small tmpfs needs root and CAP_SYS_ADMIN: ${String(mounted.stderr).trim()}`);
      return;
    }
    cleanups.push(() => spawnSync('umount', ['-l', mountPoint]));
    const dataDir = path.join(mountPoint, 'data');
    const serve = await start(dataDir);
    expect((await post(serve, inquiry(1))).status).toBe(200);
    const filler = path.join(mountPoint, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'count=64']); // stops at ENOSPC
    let refused = 0;
    for (let n = 2; n < 40 && refused === 0; n++) {
      const response = await post(serve, { ...inquiry(n), message: 'x'.repeat(4000) });
      expect([200, 503]).toContain(response.status);
      if (response.status === 503) refused++;
    }
    expect(refused).toBe(1);
    expect((await fetch(`${serve.url}/robots.txt`)).status).toBe(200);
    unlinkSync(filler);
    expect((await post(serve, inquiry(99))).status).toBe(200);
    const stored = readInbox(dataDir).map((m) => m.subject);
    expect(stored).toContain('Question 99');
    await serve.stop();
  }, 60_000);
});

describe('starting serve', () => {
  it('refuses a second server on the same data folder, and starts once the first was killed', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const second = await runCli(['serve'], root, env(dataDir));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('[DataDirInUse]');
    expect(second.stderr).toContain(dataDir);
    expect(second.stderr).not.toContain('Unexpected internal error');
    await first.stop('SIGKILL');
    const third = await start(dataDir);
    expect((await post(third, inquiry(1))).status).toBe(200);
  }, 30_000);

  it('names an unwritable data folder instead of failing with an internal error', async () => {
    const notAFolder = path.join(root, 'a-file');
    writeFileSync(notAFolder, 'x');
    const result = await runCli(['serve'], root, env(notAFolder));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[DataDirUnwritable] The data folder cannot be written\n  ${notAFolder}: `);
    expect(result.stderr).toContain('hint:');
    expect(result.stderr).not.toContain('Unexpected internal error');
  }, 30_000);
});

describe('mail delivery across a hung or slow mail server', () => {
  it('waits long enough for the answer to the message data that a slow server does not get it twice', async () => {
    // RFC 5321 suggests 10 minutes for the answer to the final dot.
    expect(SMTP_TIMEOUTS.socketTimeout).toBeGreaterThanOrEqual(600_000);
    smtp.state.mode = 'slow';
    smtp.state.delayMs = 2500;
    const dataDir = newDataDir();
    const serve = await start(dataDir, withSmtp());
    expect((await post(serve, inquiry(1))).status).toBe(200);
    await serve.waitFor(/message 1 delivered/, 20_000);
    expect(smtp.received).toHaveLength(1);
  }, 30_000);

  it('after SIGKILL during a send, the restarted server sends it again with the same Message-ID', async () => {
    smtp.state.mode = 'stall';
    const dataDir = newDataDir();
    const first = await start(dataDir, withSmtp());
    expect((await post(first, inquiry(1))).status).toBe(200);
    await waitUntil(() => smtp.received.length === 1, 'the message data to reach the mail server');
    await first.stop('SIGKILL');
    smtp.state.mode = 'answer';
    const second = await start(dataDir, withSmtp());
    await second.waitFor(/message 1 delivered/);
    expect(smtp.received).toHaveLength(2);
    const ids = smtp.received.map(messageIdIn);
    expect(ids[0]).toMatch(/^<contact-1-\d+@validators\.example>$/);
    expect(ids[1]).toBe(ids[0]);
    expect(readInbox(dataDir)[0]!.deliveredAt).not.toBeNull();
  }, 30_000);

  it('SIGTERM during a hung send exits within SHUTDOWN_TIMEOUT_SECONDS; the next start delivers', async () => {
    smtp.state.mode = 'stall';
    const dataDir = newDataDir();
    const first = await start(dataDir, { ...withSmtp(), SHUTDOWN_TIMEOUT_SECONDS: '1' });
    expect((await post(first, inquiry(1))).status).toBe(200);
    await waitUntil(() => smtp.received.length === 1, 'the message data to reach the mail server');
    const { value: code, ms } = await timed(first.stop('SIGTERM'));
    expect(code).toBe(0);
    // 1 s time-out plus start-up slack on a loaded machine; the hung send itself would take 10 minutes.
    expect(ms).toBeLessThan(8000);
    expect(first.output).toMatch(/abandoned/);
    expect(readInbox(dataDir)[0]!.deliveredAt).toBeNull();
    smtp.state.mode = 'answer';
    const second = await start(dataDir, withSmtp());
    await second.waitFor(/message 1 delivered/);
    expect(new Set(smtp.received.map(messageIdIn)).size).toBe(1);
  }, 30_000);
});
