import Database from 'better-sqlite3';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS } from '../site/security-headers.ts';
import { repoRoot } from './helpers/project.ts';
import { freePort, startSiteverify, startWebhook } from './helpers/stand-ins.ts';
import { localContactD1, startPagesDev, startWorkerDev, type RunningPagesDev } from './helpers/wrangler.ts';

interface Row {
  id: number;
  message: string;
  delivered_at: string | null;
  attempts: number;
  last_error: string | null;
}

// The contact endpoint at the edge in Cloudflare's own runtime (workerd), offline on loopback: the
// Pages Function under `wrangler pages dev` with a local D1 (miniflare's SQLite) made by
// `wrangler d1 migrations apply --local`, and the companion Worker under `wrangler dev
// --test-scheduled` on the same D1, both set up from workers/contact-sweeper/wrangler.toml as
// the guide says. Siteverify and the webhook are stand-ins whose faults the tests switch.
describe('the contact endpoint on Cloudflare Pages with its D1 inbox (workerd)', () => {
  let dir: string;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let pages: RunningPagesDev;
  let sweeper: Awaited<ReturnType<typeof startWorkerDev>>;
  let dbFile: string;
  const times: Array<[string, number]> = [];
  let address = 0;

  const vars = () => ({
    CONTACT_WEBHOOK_URL: webhook.url,
    CONTACT_WEBHOOK_TOKEN: 'edge-hook-token',
    CONTACT_WEBHOOK_TIMEOUT_SECONDS: '2',
    DELIVERY_RETRY_BASE_SECONDS: '0',
    DELIVERY_CLAIM_SECONDS: '4',
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-edge-inbox-'));
    siteverify = await startSiteverify('127.0.0.1');
    webhook = await startWebhook();
    await mkdir(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>Edge inbox</title>');
    await symlink(path.join(repoRoot, 'functions'), path.join(dir, 'functions'), 'dir');
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const d1 = await localContactD1(dir);
    expect(d1.applied).toMatch(/0002_message_duplicates\.sql/);
    dbFile = d1.dbFile;
    const state = d1.state;
    const port = await freePort();
    // One after the other: the Worker's own free ports are chosen once the site's port is bound,
    // so neither can be handed the port the other is about to take.
    pages = await startPagesDev({
      cwd: dir,
      dir: 'dist',
      port,
      d1: { CONTACT_DB: d1.id },
      persistTo: state,
      bindings: {
        SITE_ORIGIN: `http://127.0.0.1:${port}`,
        TURNSTILE_SECRET_KEY: 'pages-secret',
        TURNSTILE_VERIFY_URL: siteverify.url,
        ...vars(),
      },
    });
    sweeper = await startWorkerDev({ cwd: dir, config: d1.config, persistTo: state, vars: vars() });
  }, 240_000);

  beforeEach(() => Object.assign(webhook.state, { status: 200, delayMs: 0, hang: false, stall: false, reset: false }));

  afterAll(async () => {
    console.log(`answer times in workerd:\n${times.map(([what, ms]) => `  ${what}: ${ms.toFixed(0)} ms`).join('\n')}`);
    await pages?.close();
    await sweeper?.close();
    await siteverify?.close();
    await webhook?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const read = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  const row = (message: string) => read<Row>('SELECT * FROM messages WHERE message = ?', message)[0];
  const copies = (message: string) =>
    webhook.received.filter((delivery) => (delivery.body as { message: string }).message === message);

  async function send(what: string, message: string, client = `192.0.2.${++address}`): Promise<Response> {
    const started = performance.now();
    const response = await fetch(`${pages.url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: pages.url, 'CF-Connecting-IP': client },
      body: JSON.stringify({
        name: 'Edge',
        email: 'edge@example.org',
        subject: what,
        message,
        turnstileToken: `token-${message}`,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    await response.clone().text();
    times.push([what, performance.now() - started]);
    return response;
  }

  /** Runs the sweep until `done` holds, at most `tries` times, 1 s apart: bounded in count and time. */
  async function sweepUntil(done: () => boolean, tries = 15): Promise<void> {
    for (let run = 0; run < tries && !done(); run++) {
      await sweeper.scheduled();
      if (!done()) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(done()).toBe(true);
  }

  it('stores the message before answering ok, then delivers it with its id, Idempotency-Key and the security headers', async () => {
    const response = await send('healthy webhook', 'healthy');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(row('healthy')).toBeDefined();
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
    await expect.poll(() => row('healthy')?.delivered_at).not.toBeNull();
    const [delivery] = copies('healthy');
    expect(delivery!.headers['idempotency-key']).toBe((delivery!.body as { id: string }).id);
    expect(delivery!.headers.authorization).toBe('Bearer edge-hook-token');
    expect((delivery!.body as { id: string }).id).toBe(
      `contact-${row('healthy')!.id}-${Date.parse(read<{ received_at: string }>('SELECT received_at FROM messages WHERE id = ?', row('healthy')!.id)[0]!.received_at)}`,
    );
  });

  it('a webhook answering 500: stored and answered ok, then the sweep delivers it', async () => {
    webhook.state.status = 500;
    expect((await send('webhook 500', 'status-500')).status).toBe(200);
    await expect.poll(() => row('status-500')?.last_error).toBe('the webhook answered 500');
    webhook.state.status = 200;
    await sweepUntil(() => row('status-500')?.delivered_at != null);
    expect(new Set(copies('status-500').map((delivery) => delivery.headers['idempotency-key'])).size).toBe(1);
  });

  it('a webhook answering 302: never followed, logged with its Location, retried', async () => {
    webhook.state.status = 302;
    expect((await send('webhook 302', 'status-302')).status).toBe(200);
    await expect
      .poll(() => row('status-302')?.last_error)
      .toBe('the webhook answered 302 (a redirect to /moved, not followed)');
    expect(webhook.followed).toEqual([]);
    webhook.state.status = 200;
    await sweepUntil(() => row('status-302')?.delivered_at != null);
  });

  it.each([
    ['hangs', 'hang', /abort|time/i],
    ['drops the connection', 'reset', /./],
    ['answers 2xx after the time-out', 'late', /abort|time/i],
  ] as const)('a webhook that %s: answered ok at once, delivered later under one id', async (what, fault, error) => {
    if (fault === 'late') webhook.state.delayMs = 3000;
    else webhook.state[fault] = true;
    const message = `fault-${fault}`;
    expect((await send(`webhook ${what}`, message)).status).toBe(200);
    await expect.poll(() => row(message)?.last_error ?? '', { timeout: 15_000 }).toMatch(error);
    Object.assign(webhook.state, { delayMs: 0, hang: false, reset: false });
    await sweepUntil(() => row(message)?.delivered_at != null);
    expect(new Set(copies(message).map((delivery) => delivery.headers['idempotency-key'])).size).toBe(1);
  });

  it("a store that fails: 503, and five failures use up none of the visitor's slots", async () => {
    const db = new Database(dbFile);
    db.exec('ALTER TABLE messages RENAME TO messages_away');
    db.close();
    const visitor = '198.51.100.39';
    try {
      for (let i = 0; i < 5; i++) {
        const response = await send('store down', `down-${i}`, visitor);
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({ ok: false, error: 'storage_failed' });
      }
    } finally {
      const back = new Database(dbFile);
      back.exec('ALTER TABLE messages_away RENAME TO messages');
      back.close();
    }
    // The visitor still has all five (RATE_LIMIT_MAX's default), and no more.
    for (let i = 0; i < 5; i++) expect((await send('store back', `back-${i}`, visitor)).status).toBe(200);
    expect((await send('sixth message', 'back-6', visitor)).status).toBe(429);
    await expect
      .poll(() => read<Row>("SELECT * FROM messages WHERE message LIKE 'back-%' AND delivered_at IS NOT NULL").length)
      .toBe(5);
  });

  it('a flood of 40 messages at once: each answered, each accepted one stored and delivered under one id', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => send('flood (each of 40)', `flood-${n}`)));
    const bodies = await Promise.all(
      answers.map((answer) => answer.json() as Promise<{ ok: boolean; error?: string }>),
    );
    // On a loaded machine the verifier stand-in may be too slow for some: they are told to send again (503).
    for (const [n, answer] of answers.entries()) {
      if (answer.status !== 200)
        expect({ status: answer.status, body: bodies[n] }).toEqual({
          status: 503,
          body: { ok: false, error: 'verifier_unavailable' },
        });
    }
    const accepted = answers.flatMap((answer, n) => (answer.status === 200 ? [`flood-${n}`] : []));
    expect(accepted.length).toBeGreaterThan(0);
    expect(
      read<Row>("SELECT * FROM messages WHERE message LIKE 'flood-%'")
        .map((stored) => stored.message)
        .sort(),
    ).toEqual([...accepted].sort());
    await sweepUntil(
      () => read<Row>("SELECT * FROM messages WHERE message LIKE 'flood-%' AND delivered_at IS NULL").length === 0,
    );
    for (const message of accepted) {
      expect(copies(message).length).toBeGreaterThanOrEqual(1);
      expect(new Set(copies(message).map((delivery) => delivery.headers['idempotency-key'])).size).toBe(1);
    }
    console.log(
      `flood: ${accepted.length} of 40 accepted, ${accepted.filter((message) => copies(message).length > 1).length} delivered twice`,
    );
  });

  it('a double submit is stored and delivered once', async () => {
    const [first, second] = await Promise.all([
      send('double submit', 'twice', '198.51.100.40'),
      send('double submit', 'twice', '198.51.100.40'),
    ]);
    // Each answer with its body: a failure says which error the function gave.
    const said = await Promise.all([first, second].map(async (answer) => [answer.status, await answer.text()]));
    expect(
      said.map(([status]) => status),
      JSON.stringify(said),
    ).toEqual([200, 200]);
    expect(read<Row>("SELECT * FROM messages WHERE message = 'twice'")).toHaveLength(1);
    await sweepUntil(() => row('twice')?.delivered_at != null);
    expect(new Set(copies('twice').map((delivery) => delivery.headers['idempotency-key'])).size).toBe(1);
  });

  it('the function killed between storing and delivering: the sweep delivers the message, once', async () => {
    webhook.state.stall = true;
    expect((await send('before the kill', 'killed')).status).toBe(200);
    await pages.process.stop(0);
    webhook.state.stall = false;
    expect(row('killed')?.delivered_at).toBeNull();
    await sweepUntil(() => row('killed')?.delivered_at != null);
    expect(copies('killed')).toHaveLength(1);
    await sweeper.scheduled();
    expect(copies('killed')).toHaveLength(1);
    // Nothing answered 200 was lost.
    expect(read<Row>('SELECT * FROM messages WHERE delivered_at IS NULL')).toEqual([]);
  });

  it('without the D1 binding the function fails closed: 503 with the security headers, a named error in its log', async () => {
    const port = await freePort();
    const unbound = await startPagesDev({
      cwd: dir,
      dir: 'dist',
      port,
      bindings: {
        SITE_ORIGIN: `http://127.0.0.1:${port}`,
        TURNSTILE_SECRET_KEY: 'pages-secret',
        TURNSTILE_VERIFY_URL: siteverify.url,
        ...vars(),
      },
    });
    try {
      const started = performance.now();
      const response = await fetch(`${unbound.url}/api/contact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: unbound.url },
        body: JSON.stringify({
          name: 'Edge',
          email: 'edge@example.org',
          subject: 'unbound',
          message: 'unbound',
          turnstileToken: 't',
        }),
        signal: AbortSignal.timeout(30_000),
      });
      times.push(['no D1 binding', performance.now() - started]);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ ok: false, error: 'not_configured' });
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
      await expect.poll(() => unbound.process.output).toContain('[PagesBindingMissing]');
      expect(unbound.process.output).toContain('CONTACT_DB');
      expect(copies('unbound')).toEqual([]);
    } finally {
      await unbound.close();
    }
  });
});
