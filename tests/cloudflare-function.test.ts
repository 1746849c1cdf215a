import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRequest, type Env } from '../functions/api/contact.ts';
import { sweep } from '../workers/contact-sweeper/index.ts';
import { API_SECURITY_HEADERS } from '../site/security-headers.ts';
import { createD1Inbox } from '../src/inbox/inbox-d1.ts';
import { deliverDue } from '../src/inbox/edge-delivery.ts';
import { createWebhookSender } from '../src/inbox/webhook-sender.ts';
import { memoryD1 } from './helpers/d1.ts';
import { startSiteverify, startWebhook } from './helpers/stand-ins.ts';

const ORIGIN = 'https://validators.example';
const valid = {
  name: 'Grace',
  email: 'grace@example.org',
  subject: 'Hello',
  message: 'From the edge',
  turnstileToken: 'pass-cf',
};

interface Row {
  id: number;
  received_at: string;
  delivered_at: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
}

// The function as the platform calls it, in process: a Request with Cloudflare's client-address
// header, the env with a D1 binding (in-memory SQLite with the inbox's migrations), and
// `waitUntil`, whose work the tests wait for by themselves.
describe('the Cloudflare Pages Function functions/api/contact, its inbox in D1', () => {
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let d1: ReturnType<typeof memoryD1>;
  let storeDown: (sql: string) => boolean;
  let env: Env;
  let later: Promise<unknown>[];

  beforeAll(async () => {
    siteverify = await startSiteverify('validators.example');
    webhook = await startWebhook();
  });
  afterAll(async () => {
    await siteverify?.close();
    await webhook?.close();
  });
  beforeEach(() => {
    storeDown = () => false;
    d1 = memoryD1((sql) => storeDown(sql));
    webhook.received.length = 0;
    webhook.followed.length = 0;
    Object.assign(webhook.state, { status: 200, delayMs: 0, hang: false });
    later = [];
    env = {
      SITE_ORIGIN: ORIGIN,
      TURNSTILE_SECRET_KEY: 'cf-secret',
      TURNSTILE_VERIFY_URL: siteverify.url,
      CONTACT_DB: d1.binding,
      CONTACT_WEBHOOK_URL: webhook.url,
      CONTACT_WEBHOOK_TOKEN: 'hook-token',
      CONTACT_WEBHOOK_TIMEOUT_SECONDS: '1',
      // Retries due at once, so a sweep right after a failure tries again.
      DELIVERY_RETRY_BASE_SECONDS: '0',
    };
  });
  afterEach(() => d1.close());

  let visitor = 0;
  const call = (body: unknown, options: { headers?: Record<string, string>; env?: object } = {}) =>
    onRequest({
      request: new Request(`${ORIGIN}/api/contact`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: ORIGIN,
          'CF-Connecting-IP': `192.0.2.${++visitor % 250}`,
          ...options.headers,
        },
        body: JSON.stringify(body),
      }),
      env: (options.env ?? env) as Env,
      waitUntil: (promise) => void later.push(promise),
    });
  const settled = async () => {
    while (later.length) await later.shift();
  };
  const rows = () => d1.db.prepare('SELECT * FROM messages ORDER BY id').all() as Row[];
  const ids = () => webhook.received.map((delivery) => (delivery.body as { id: string }).id);

  it('stores the message before answering ok, then delivers it with its id and Idempotency-Key', async () => {
    const response = await call({ ...valid, message: 'stored first' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    // Answered: the row is there, whatever the delivery does.
    expect(rows()).toHaveLength(1);
    await settled();
    const [row] = rows();
    expect(row!.delivered_at).not.toBeNull();
    expect(webhook.received).toHaveLength(1);
    const [delivery] = webhook.received;
    const id = `contact-${row!.id}-${Date.parse(row!.received_at)}`;
    expect(delivery!.headers['idempotency-key']).toBe(id);
    expect(delivery!.headers.authorization).toBe('Bearer hook-token');
    expect(delivery!.body).toMatchObject({ type: 'contact-message', id, name: 'Grace', message: 'stored first' });
    expect(siteverify.requests.at(-1)).toMatchObject({ secret: 'cf-secret', response: 'pass-cf' });
  });

  it('a webhook answering 500 loses nothing: 200 to the visitor, then the sweep delivers it with the same id', async () => {
    webhook.state.status = 500;
    expect((await call({ ...valid, message: 'outage' })).status).toBe(200);
    await settled();
    expect(rows()[0]).toMatchObject({ delivered_at: null, attempts: 1, last_error: 'the webhook answered 500' });
    webhook.state.status = 200;
    expect(await sweep(env)).toEqual({ delivered: 1, failed: 0 });
    expect(rows()[0]!.delivered_at).not.toBeNull();
    expect(new Set(ids()).size).toBe(1);
    expect(webhook.received).toHaveLength(2);
    // Delivered once recorded: the next sweep sends nothing.
    expect(await sweep(env)).toEqual({ delivered: 0, failed: 0 });
  });

  it.each([301, 302, 303, 307, 308])(
    'never follows a %i from the webhook: a failed delivery with its Location, retried',
    async (status) => {
      webhook.state.status = status;
      expect((await call({ ...valid, message: `redirect ${status}` })).status).toBe(200);
      await settled();
      expect(webhook.followed).toEqual([]);
      expect(rows()[0]).toMatchObject({ delivered_at: null, attempts: 1 });
      expect(rows()[0]!.last_error).toBe(`the webhook answered ${status} (a redirect to /moved, not followed)`);
      webhook.state.status = 200;
      await sweep(env);
      expect(rows()[0]!.delivered_at).not.toBeNull();
    },
  );

  it('a webhook that hangs, refuses or answers late: the visitor is told ok at once, the message is retried', async () => {
    webhook.state.hang = true;
    expect((await call({ ...valid, message: 'hanging' })).status).toBe(200);
    await settled();
    expect(rows()[0]).toMatchObject({ delivered_at: null, attempts: 1 });
    expect(rows()[0]!.last_error).toMatch(/abort|timeout/i);

    const refused = { ...env, CONTACT_WEBHOOK_URL: 'http://127.0.0.1:9/hook' };
    expect((await call({ ...valid, message: 'refused' }, { env: refused })).status).toBe(200);
    await settled();
    // Stored; the pass tried the older message first, failed, and left the rest for later.
    expect(rows()[1]).toMatchObject({ delivered_at: null });
    expect(rows()[0]!.last_error).toMatch(/fetch failed|refused/i);

    // Late: the receiver takes it after we stopped waiting; the retry carries the same id.
    webhook.state.hang = false;
    webhook.state.delayMs = 1500;
    await sweep(env);
    webhook.state.delayMs = 0;
    await sweep(env);
    await sweep(env);
    expect(rows().map((row) => row.delivered_at !== null)).toEqual([true, true]);
    // Copies of one message carry one id: the hung attempt, the late one, the last.
    expect(new Set(ids()).size).toBe(2);
    expect(
      webhook.received.every(
        (delivery) => delivery.headers['idempotency-key'] === (delivery.body as { id: string }).id,
      ),
    ).toBe(true);
  });

  it("a store that fails answers 503 and uses up none of the visitor's slots: five failures, recovery, five messages", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      storeDown = () => true;
      const same = { headers: { 'CF-Connecting-IP': '198.51.100.77' } };
      for (let i = 0; i < 5; i++) {
        const response = await call({ ...valid, message: `down ${i}` }, same);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('30');
        expect(await response.json()).toEqual({ ok: false, error: 'storage_failed' });
      }
      storeDown = () => false;
      for (let i = 0; i < 5; i++) expect((await call({ ...valid, message: `up ${i}` }, same)).status).toBe(200);
      expect((await call({ ...valid, message: 'one more' }, same)).status).toBe(429);
      await settled();
      expect(rows()).toHaveLength(5);
      expect(webhook.received).toHaveLength(5);
    } finally {
      logged.mockRestore();
    }
  });

  it('without the D1 binding it fails closed: 503 and a named error in its log, nothing sent', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { CONTACT_DB: _binding, ...unbound } = env;
      const response = await call(valid, { env: unbound });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ ok: false, error: 'not_configured' });
      expect(logged.mock.calls.flat().join('\n')).toContain('[PagesBindingMissing]');
      expect(logged.mock.calls.flat().join('\n')).toContain('CONTACT_DB');
      await settled();
      expect(webhook.received).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it('a double submit of the same form is stored and delivered once', async () => {
    const same = { headers: { 'CF-Connecting-IP': '198.51.100.78' } };
    const [first, second] = await Promise.all([
      call({ ...valid, message: 'twice' }, same),
      call({ ...valid, message: 'twice', turnstileToken: 'pass-2' }, same),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await settled();
    expect(rows()).toHaveLength(1);
    expect(webhook.received).toHaveLength(1);
  });

  it('a message stored by a function stopped before delivering is delivered by the next sweep, once', async () => {
    // Stopped right after storing: its first attempt never claims the message.
    storeDown = (sql) => sql.startsWith('UPDATE messages SET next_attempt_at');
    expect((await call({ ...valid, message: 'orphan' })).status).toBe(200);
    await settled();
    storeDown = () => false;
    expect(webhook.received).toEqual([]);
    expect(await sweep(env)).toEqual({ delivered: 1, failed: 0 });
    expect(await sweep(env)).toEqual({ delivered: 0, failed: 0 });
    expect(webhook.received).toHaveLength(1);
  });

  it('a message claimed by a deliverer that died is left alone until its claim runs out, then sent once more with the same id', async () => {
    const inbox = createD1Inbox(d1.binding);
    const id = await inbox.add({ ...valid, receivedAt: new Date().toISOString(), clientAddress: '192.0.2.1' });
    const start = Date.now();
    // The deliverer claimed it and died before sending.
    expect(await inbox.claim(id, new Date(start + 60_000), new Date(start))).toBe(true);
    const sender = createWebhookSender({ url: webhook.url, type: 'contact-message', idPrefix: 'contact' });
    const pass = (at: number) =>
      deliverDue({
        inbox,
        senders: [sender],
        retryBaseMs: 0,
        retryMaxMs: 0,
        claimMs: 60_000,
        maxMessages: 10,
        budgetMs: 10_000,
        now: () => new Date(at),
      });
    expect(await pass(start + 30_000)).toEqual({ delivered: 0, failed: 0 });
    expect(await pass(start + 61_000)).toEqual({ delivered: 1, failed: 0 });
    expect(webhook.received).toHaveLength(1);
  });

  it('puts the security headers on every answer: accepted, refused, failed closed', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { CONTACT_DB: _binding, ...unbound } = env;
      const answers = [
        await call({ ...valid, message: 'headers' }),
        await call({ ...valid, email: 'nope' }),
        await call(valid, { env: unbound }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 400, 503]);
      for (const answer of answers) {
        for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(answer.headers.get(name)).toBe(value);
      }
      await settled();
    } finally {
      logged.mockRestore();
    }
  });

  it('mails through an HTTP mail API too: same id as Message-ID and Idempotency-Key, retried until both targets took it', async () => {
    const mailApi = await startWebhook();
    try {
      const both = {
        ...env,
        MAIL_API_URL: mailApi.url,
        MAIL_API_TOKEN: 'mail-key',
        MAIL_TO: 'office@validators.example',
        MAIL_FROM: 'form@validators.example',
      };
      mailApi.state.status = 302;
      expect((await call({ ...valid, message: 'by mail' }, { env: both })).status).toBe(200);
      await settled();
      expect(rows()[0]).toMatchObject({
        delivered_at: null,
        last_error: 'the mail API answered 302 (a redirect to /moved, not followed)',
      });
      expect(mailApi.followed).toEqual([]);
      mailApi.state.status = 200;
      await sweep(both);
      expect(rows()[0]!.delivered_at).not.toBeNull();
      const id = `contact-${rows()[0]!.id}-${Date.parse(rows()[0]!.received_at)}`;
      const mail = mailApi.received.at(-1)!;
      expect(mail.headers['idempotency-key']).toBe(id);
      expect(mail.headers.authorization).toBe('Bearer mail-key');
      expect(mail.body).toMatchObject({
        from: 'form@validators.example',
        to: ['office@validators.example'],
        reply_to: 'grace@example.org',
        subject: 'Contact form: Hello',
        headers: { 'Message-ID': `<${id}@validators.example>` },
      });
      expect((mail.body as { text: string }).text).toContain('by mail');
      // The webhook took it on the first attempt and again with the retry: one id, which its receiver drops.
      expect(new Set(ids())).toEqual(new Set([id]));
    } finally {
      await mailApi.close();
    }
  });

  it('a mail API set up without its recipient fails closed before storing anything', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await call(valid, {
        env: { ...env, MAIL_API_URL: 'http://127.0.0.1:9/mail', MAIL_API_TOKEN: 'k' },
      });
      expect(response.status).toBe(503);
      expect(logged.mock.calls.flat().join('\n')).toContain('MAIL_TO is not set');
      expect(rows()).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it('applies the same checks as the Node server', async () => {
    expect((await call({ ...valid, turnstileToken: 'bad' })).status).toBe(403);
    expect((await call({ ...valid, email: 'nope' })).status).toBe(400);
    expect((await call(valid, { headers: { Origin: 'https://elsewhere.example' } })).status).toBe(403);
    await settled();
    expect(rows()).toEqual([]);
    expect(webhook.received).toEqual([]);
  });
});
