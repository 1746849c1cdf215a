import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createContactHandler,
  MAX_BODY_BYTES,
  VERIFICATIONS_PER_MESSAGE,
  type ContactHandler,
} from '../site/contact/handler.ts';
import { openSqliteInbox, type SqliteInbox } from '../src/inbox/inbox-sqlite.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';
import {
  createTurnstileVerifier,
  VerifierUnavailableError,
  type ChallengeVerifier,
} from '../site/contact/turnstile.ts';
import { startSiteverify } from './helpers/stand-ins.ts';

const ORIGIN = 'https://validators.example';
const valid = {
  name: 'Ada',
  email: 'ada@example.org',
  subject: 'Staking',
  message: 'Hello there',
  turnstileToken: 'pass-1',
};

describe('the contact handler (real SQLite inbox, siteverify stand-in on loopback)', () => {
  let dir: string;
  let inbox: SqliteInbox;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let handle: ContactHandler;
  let accepted: number[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-inbox-'));
    siteverify = await startSiteverify('validators.example');
  });
  afterAll(async () => {
    inbox?.close();
    await siteverify?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    inbox?.close();
    inbox = openSqliteInbox(path.join(dir, String(Math.random())));
    siteverify.state.mode = 'up';
    siteverify.requests.length = 0;
    accepted = [];
    handle = createContactHandler({
      verifier: createTurnstileVerifier({ secret: 'test-secret', url: siteverify.url, timeoutMs: 2000 }),
      inbox,
      rateLimiter: createRateLimiter({ limit: 5, windowMs: 600_000 }),
      allowedOrigins: [ORIGIN],
      expectedHostname: 'validators.example',
      onAccepted: (id) => accepted.push(id),
    });
  });

  function post(body: unknown, init: { headers?: Record<string, string>; method?: string; raw?: string } = {}) {
    return new Request('https://validators.example/api/contact', {
      method: init.method ?? 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...init.headers },
      body: init.method === 'GET' ? undefined : (init.raw ?? JSON.stringify(body)),
    });
  }

  async function expectRejected(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ ok: false, error });
    expect(inbox.list()).toEqual([]);
  }

  it('stores a valid message durably, then answers { ok: true }', async () => {
    const response = await handle(post(valid), '203.0.113.7');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const [stored] = inbox.list();
    expect(stored).toMatchObject({
      name: 'Ada',
      email: 'ada@example.org',
      subject: 'Staking',
      message: 'Hello there',
      clientAddress: '203.0.113.7',
      deliveredAt: null,
    });
    expect(accepted).toEqual([stored!.id]);
    // The token was checked with the secret and the visitor's address.
    expect(siteverify.requests).toEqual([{ secret: 'test-secret', response: 'pass-1', remoteip: '203.0.113.7' }]);
  });

  it('accepts only POST', async () => {
    const response = await handle(post(undefined, { method: 'GET' }), '1.1.1.1');
    await expectRejected(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('refuses other origins and requests without one', async () => {
    await expectRejected(
      await handle(post(valid, { headers: { Origin: 'https://evil.example' } }), '1.1.1.1'),
      403,
      'origin_not_allowed',
    );
    const noOrigin = new Request('https://validators.example/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(valid),
    });
    await expectRejected(await handle(noOrigin, '1.1.1.1'), 403, 'origin_not_allowed');
  });

  it('accepts only Content-Type: application/json', async () => {
    await expectRejected(
      await handle(post(valid, { headers: { 'Content-Type': 'text/plain' } }), '1.1.1.1'),
      415,
      'unsupported_media_type',
    );
    await expectRejected(
      await handle(post(valid, { headers: { 'Content-Type': 'application/xml' } }), '1.1.1.1'),
      415,
      'unsupported_media_type',
    );
    // A form the browser posts by itself is not refused but sent to the explanation (see contact-form-post.test.ts).
    const formPost = await handle(
      post(valid, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      '1.1.1.1',
    );
    expect(formPost.status).toBe(303);
    expect(formPost.headers.get('location')).toBe('/contact/no-script');
    const withCharset = await handle(
      post(valid, { headers: { 'Content-Type': 'application/json; charset=utf-8' } }),
      '1.1.1.1',
    );
    expect(withCharset.status).toBe(200);
  });

  it('refuses a body over 32 KiB, declared or not', async () => {
    const big = { ...valid, message: 'x'.repeat(MAX_BODY_BYTES) };
    await expectRejected(await handle(post(big), '1.1.1.1'), 413, 'payload_too_large');
    const streamed = new Request('https://validators.example/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await expectRejected(await handle(streamed, '1.1.1.1'), 413, 'payload_too_large');
  });

  it('refuses malformed JSON and a body that is not an object', async () => {
    await expectRejected(await handle(post(undefined, { raw: '{"name": ' }), '1.1.1.1'), 400, 'invalid_json');
    await expectRejected(await handle(post([valid]), '1.1.1.1'), 400, 'invalid_field');
  });

  it.each([
    ['name', undefined, 'must be a string'],
    ['name', 42, 'must be a string'],
    ['name', '   ', 'must not be empty'],
    ['name', 'n'.repeat(201), 'must be at most 200 characters'],
    ['subject', '', 'must not be empty'],
    ['subject', 's'.repeat(201), 'must be at most 200 characters'],
    ['message', 'm'.repeat(5001), 'must be at most 5000 characters'],
    ['email', 'not-an-address', 'must be an e-mail address'],
    ['email', 'a@b', 'must be an e-mail address'],
    ['email', 'two@@example.org', 'must be an e-mail address'],
    ['email', `${'a'.repeat(250)}@example.org`, 'must be at most 254 characters'],
    ['turnstileToken', '', 'must not be empty'],
  ])('refuses %s = %j (%s)', async (field, value, reason) => {
    const body: Record<string, unknown> = { ...valid, [field]: value };
    if (value === undefined) delete body[field];
    const response = await handle(post(body), '1.1.1.1');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_field', field, reason });
    expect(inbox.list()).toEqual([]);
    expect(siteverify.requests).toEqual([]);
  });

  it('accepts the longest allowed values', async () => {
    const body = { ...valid, name: 'n'.repeat(200), subject: 's'.repeat(200), message: 'm'.repeat(5000) };
    expect((await handle(post(body), '1.1.1.1')).status).toBe(200);
  });

  it('a failed or expired token gets 403', async () => {
    await expectRejected(
      await handle(post({ ...valid, turnstileToken: 'expired' }), '1.1.1.1'),
      403,
      'verification_failed',
    );
  });

  it('a token solved on another hostname gets 403', async () => {
    const response = await handle(post({ ...valid, turnstileToken: 'wrong-host' }), '1.1.1.1');
    expect(await response.clone().json()).toMatchObject({ codes: ['hostname-mismatch'] });
    await expectRejected(response, 403, 'verification_failed');
  });

  it('a verifier in trouble (500) gets 503 and the message is not accepted', async () => {
    siteverify.state.mode = 'down';
    const response = await handle(post(valid), '1.1.1.1');
    expect(response.headers.get('retry-after')).toBe('30');
    await expectRejected(response, 503, 'verifier_unavailable');
  });

  it('a verifier that cannot be reached gets 503', async () => {
    const unreachable = createContactHandler({
      verifier: createTurnstileVerifier({ secret: 's', url: 'http://127.0.0.1:9/siteverify', timeoutMs: 1000 }),
      inbox,
      rateLimiter: createRateLimiter({ limit: 5, windowMs: 1000 }),
      allowedOrigins: [ORIGIN],
    });
    await expectRejected(await unreachable(post(valid), '1.1.1.1'), 503, 'verifier_unavailable');
  });

  it('limits each client to 5 messages in 10 minutes, with Retry-After', async () => {
    for (let i = 0; i < 5; i++)
      expect((await handle(post({ ...valid, message: `Hello ${i}` }), '198.51.100.1')).status).toBe(200);
    const limited = await handle(post(valid), '198.51.100.1');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ ok: false, error: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(inbox.list()).toHaveLength(5);
    // Another client is not affected.
    expect((await handle(post(valid), '198.51.100.2')).status).toBe(200);
  });

  it("junk, failed challenges and verifier outages use up none of the visitor's message slots", async () => {
    const visitor = '198.51.100.3';
    for (let i = 0; i < 6; i++)
      await expectRejected(await handle(post(undefined, { raw: '{"junk' }), visitor), 400, 'invalid_json');
    for (let i = 0; i < 6; i++)
      await expectRejected(await handle(post({ ...valid, email: 'nope' }), visitor), 400, 'invalid_field');
    for (let i = 0; i < 3; i++)
      await expectRejected(
        await handle(post({ ...valid, turnstileToken: 'expired' }), visitor),
        403,
        'verification_failed',
      );
    siteverify.state.mode = 'down';
    for (let i = 0; i < 3; i++) await expectRejected(await handle(post(valid), visitor), 503, 'verifier_unavailable');
    siteverify.state.mode = 'up';
    for (let i = 0; i < 5; i++) expect((await handle(post(valid), visitor)).status).toBe(200);
    expect((await handle(post(valid), visitor)).status).toBe(429);
  });

  it("a store that fails uses up none of the visitor's slots: five failures, recovery, then five messages", async () => {
    const visitor = '198.51.100.5';
    let down = true;
    const failing = createContactHandler({
      verifier: createTurnstileVerifier({ secret: 'test-secret', url: siteverify.url, timeoutMs: 2000 }),
      inbox: {
        add(message) {
          if (down) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          return inbox.add(message);
        },
      },
      rateLimiter: createRateLimiter({ limit: 5, windowMs: 600_000 }),
      allowedOrigins: [ORIGIN],
    });
    for (let i = 0; i < 5; i++)
      await expectRejected(await failing(post({ ...valid, message: `try ${i}` }), visitor), 503, 'storage_failed');
    down = false;
    for (let i = 0; i < 5; i++)
      expect((await failing(post({ ...valid, message: `again ${i}` }), visitor)).status).toBe(200);
    expect((await failing(post(valid), visitor)).status).toBe(429);
    expect(inbox.list()).toHaveLength(5);
  });

  it('stores a form sent twice with the same fields once, and answers both ok', async () => {
    const first = await handle(post(valid), '198.51.100.6');
    const again = await handle(post({ ...valid, turnstileToken: 'pass-2' }), '198.51.100.6');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(inbox.list()).toHaveLength(1);
    expect(accepted).toEqual([inbox.list()[0]!.id, inbox.list()[0]!.id]);
    // Another message of the same visitor is a message of its own.
    expect((await handle(post({ ...valid, message: 'Something else' }), '198.51.100.6')).status).toBe(200);
    expect(inbox.list()).toHaveLength(2);
  });

  it('a limited client is refused before its body is read or the verifier is called', async () => {
    for (let i = 0; i < 5; i++) expect((await handle(post(valid), '198.51.100.4')).status).toBe(200);
    const calls = siteverify.requests.length;
    const limited = await handle(post(undefined, { raw: '{"junk' }), '198.51.100.4');
    expect(limited.status).toBe(429);
    expect(siteverify.requests).toHaveLength(calls);
  });

  it('well-formed junk cannot make the server call the verifier without limit', async () => {
    const attacker = '203.0.113.66';
    const budget = 5 * VERIFICATIONS_PER_MESSAGE;
    for (let i = 0; i < budget; i++)
      await expectRejected(
        await handle(post({ ...valid, turnstileToken: `bad-${i}` }), attacker),
        403,
        'verification_failed',
      );
    for (let i = 0; i < 10; i++) {
      const response = await handle(post({ ...valid, turnstileToken: `bad-more-${i}` }), attacker);
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(siteverify.requests).toHaveLength(budget);
    // Someone else is still served.
    expect((await handle(post(valid), '203.0.113.67')).status).toBe(200);
  });
});

// The handler's limits as a model: per client (IPv6 by /64, mapped IPv6 as IPv4) a message count and
// a verifier-call count, both within one window. Fast in-process stand-ins keep hundreds of runs quick.
describe('the contact handler under random traffic', () => {
  const LIMIT = 3;
  const CLIENTS = [
    { address: '198.51.100.10', group: 'a' },
    { address: '::ffff:198.51.100.10', group: 'a' },
    { address: '198.51.100.11', group: 'b' },
    { address: '2001:db8:7:7::1', group: 'c' },
    { address: '2001:db8:7:7:ffff::2', group: 'c' },
    { address: '2001:db8:7:8::1', group: 'd' },
  ];
  const KINDS = ['valid', 'invalid_json', 'invalid_field', 'bad_token', 'verifier_down'] as const;
  type Kind = (typeof KINDS)[number];

  const verifier: ChallengeVerifier = {
    async verify(token) {
      if (token === 'down') throw new VerifierUnavailableError('stand-in is down');
      return token === 'bad'
        ? { success: false, errorCodes: ['invalid-input-response'] }
        : { success: true, hostname: 'validators.example', errorCodes: [] };
    },
  };
  const request = (kind: Kind) => {
    const body =
      kind === 'invalid_json'
        ? '{"name":'
        : kind === 'invalid_field'
          ? JSON.stringify({ ...valid, name: '' })
          : JSON.stringify({
              ...valid,
              turnstileToken: kind === 'bad_token' ? 'bad' : kind === 'verifier_down' ? 'down' : 'ok',
            });
    return new Request('https://validators.example/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body,
    });
  };
  const STATUS: Record<Kind, number> = {
    valid: 200,
    invalid_json: 400,
    invalid_field: 400,
    bad_token: 403,
    verifier_down: 503,
  };

  function expectedStatus(kind: Kind, counts: { messages: number; verifications: number }): number {
    if (counts.messages >= LIMIT) return 429;
    if (kind === 'invalid_json' || kind === 'invalid_field') return 400;
    if (counts.verifications >= LIMIT * VERIFICATIONS_PER_MESSAGE) return 429;
    counts.verifications += 1;
    if (kind === 'valid') counts.messages += 1;
    return STATUS[kind];
  }

  it("answers as the model does, and a valid visitor is never limited by others' requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(CLIENTS.length - 1), fc.constantFrom(...KINDS)), { maxLength: 80 }),
        async (steps) => {
          const stored: string[] = [];
          const handle = createContactHandler({
            verifier,
            inbox: { add: (message) => stored.push(message.clientAddress) },
            rateLimiter: createRateLimiter({ limit: LIMIT, windowMs: 600_000 }),
            allowedOrigins: [ORIGIN],
            now: () => new Date(1_700_000_000_000),
          });
          const model = new Map<string, { messages: number; verifications: number }>();
          for (const [index, kind] of steps) {
            const client = CLIENTS[index]!;
            const counts = model.get(client.group) ?? { messages: 0, verifications: 0 };
            model.set(client.group, counts);
            const expected = expectedStatus(kind, counts);
            expect((await handle(request(kind), client.address)).status).toBe(expected);
          }
          // The visitor who has sent nothing yet gets every one of their messages through.
          const visitor = '192.0.2.200';
          for (let i = 0; i < LIMIT; i++) expect((await handle(request('valid'), visitor)).status).toBe(200);
          expect((await handle(request('valid'), visitor)).status).toBe(429);
          expect(stored.filter((address) => address === visitor)).toHaveLength(LIMIT);
        },
      ),
      { numRuns: 300 },
    );
  });
});
