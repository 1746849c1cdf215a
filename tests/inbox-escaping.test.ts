import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControlCharacters, hasControlCharacters } from '../src/base/control-characters.ts';
import { createContactHandler, type StoredMessage } from '../site/contact/handler.ts';
import { formatInboxLine } from '../src/inbox/inbox-listing.ts';
import { composeMail } from '../src/inbox/mail-compose.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';
import { createTurnstileVerifier, type ChallengeVerifier } from '../site/contact/turnstile.ts';

// Everything a terminal or a mail reader could take for more than a printed character.
const DANGEROUS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const dangerousCharacter = fc
  .oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.constantFrom(
      0x061c,
      0x200e,
      0x200f,
      0x2028,
      0x2029,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
    ),
  )
  .map((code) => String.fromCodePoint(code));
/** Random unicode with control characters, escape sequences and forged lines mixed in. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      dangerousCharacter,
      fc.constantFrom(
        '\x1b[2J',
        '\x1b]0;pwned\x07',
        '\r\n#99  2024-01-01  Forged <f@x.org>',
        '\nFrom: boss@example.com',
        '\u009b31m',
      ),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const storedWith = (fields: Partial<StoredMessage>): StoredMessage => ({
  id: 7,
  name: 'Ana',
  email: 'ana@example.org',
  subject: 'Hello',
  message: 'Text',
  receivedAt: '2024-05-01T10:00:00.000Z',
  clientAddress: '127.0.0.1',
  deliveredAt: null,
  attempts: 0,
  lastError: null,
  ...fields,
});

describe('escaping control characters', () => {
  it('leaves no control character, bidi override or line separator, and keeps ordinary text (property)', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const escaped = escapeControlCharacters(text);
        expect(escaped).not.toMatch(DANGEROUS);
        expect(hasControlCharacters(text)).toBe(DANGEROUS.test(text));
        if (!DANGEROUS.test(text)) expect(escaped).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('writes each one out as \\uXXXX', () => {
    expect(escapeControlCharacters('a\x1b[31mb\nc\u202ed\u2028')).toBe('a\\u001B[31mb\\u000Ac\\u202Ed\\u2028');
  });

  it('inbox list prints one line per message whatever the visitor or the mail server wrote (property)', () => {
    fc.assert(
      fc.property(
        hostileText,
        hostileText,
        hostileText,
        fc.option(hostileText, { nil: null }),
        (name, email, subject, lastError) => {
          const line = formatInboxLine(storedWith({ name, email, subject, lastError }));
          expect(line).not.toMatch(DANGEROUS);
          expect(line.startsWith('#7  2024-05-01T10:00:00.000Z  ')).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('composing the mail', () => {
  it('gives no field a way to start a forged line in the body or a header (property)', () => {
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, hostileText, (name, email, subject, message) => {
        const mail = composeMail(storedWith({ name, email, subject, message }), {
          from: 'site@example.com',
          to: 'office@example.com',
          domain: 'example.com',
        });
        for (const header of [mail.subject, mail.replyTo.name, mail.replyTo.address])
          expect(header).not.toMatch(DANGEROUS);
        const lines = mail.text.split('\n');
        // The three header-like lines are exactly the ones composeMail writes, in order.
        expect(lines[0]!.startsWith('From: ')).toBe(true);
        expect(lines[1]).toBe('Received: 2024-05-01T10:00:00.000Z');
        expect(lines[2]!.startsWith('Subject: ')).toBe(true);
        expect(lines[3]).toBe('');
        for (const line of lines.slice(0, 3)) expect(line).not.toMatch(DANGEROUS);
        // The visitor's message keeps its line breaks and tabs, nothing else that controls a display.
        expect(lines.slice(4).join('\n')).not.toMatch(
          /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the same Message-ID for the same stored message', () => {
    const options = { from: 'a@example.com', to: 'b@example.com', domain: 'example.com' };
    expect(composeMail(storedWith({}), options).messageId).toBe(
      composeMail(storedWith({ attempts: 3 }), options).messageId,
    );
  });
});

describe('the handler refuses control characters in one-line fields', () => {
  const passing: ChallengeVerifier = { verify: async () => ({ success: true, errorCodes: [] }) };
  const added: unknown[] = [];
  const handler = createContactHandler({
    verifier: passing,
    inbox: { add: (message) => added.push(message) },
    rateLimiter: createRateLimiter({ limit: 1_000_000, windowMs: 1000 }),
    allowedOrigins: ['https://example.com'],
  });
  const post = (body: object) =>
    handler(
      new Request('https://example.com/api/contact', {
        method: 'POST',
        headers: { Origin: 'https://example.com', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
      '127.0.0.1',
    );
  const valid = {
    name: 'Ana',
    email: 'ana@example.org',
    subject: 'Hi',
    message: 'Line one\nLine two',
    turnstileToken: 't',
  };

  it('answers 400 invalid_field naming the field, and stores nothing (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('name', 'subject', 'email'),
        fc.string({ maxLength: 20 }),
        dangerousCharacter,
        fc.string({ maxLength: 20 }),
        async (field, before, bad, after) => {
          const before_count = added.length;
          const response = await post({ ...valid, [field]: `${field === 'email' ? 'a' : 'x'}${before}${bad}${after}` });
          expect(response.status).toBe(400);
          expect(await response.json()).toMatchObject({ ok: false, error: 'invalid_field', field });
          expect(added.length).toBe(before_count);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('still accepts line breaks in the message itself', async () => {
    expect((await post(valid)).status).toBe(200);
  });
});

describe('a verifier that answers garbage', () => {
  const answers: Record<string, { status: number; type: string; body: string } | 'hang'> = {
    null: { status: 200, type: 'application/json', body: 'null' },
    array: { status: 200, type: 'application/json', body: '[true]' },
    number: { status: 200, type: 'application/json', body: '42' },
    string: { status: 200, type: 'application/json', body: '"success"' },
    'no-success': { status: 200, type: 'application/json', body: '{"hostname":"example.com"}' },
    'string-success': { status: 200, type: 'application/json', body: '{"success":"true"}' },
    html: { status: 200, type: 'text/html', body: '<!doctype html><title>Login</title>' },
    'html-400': { status: 400, type: 'text/html', body: '<h1>Bad request</h1>' },
    truncated: { status: 200, type: 'application/json', body: '{"success": tr' },
    hang: 'hang',
  };
  let url = '';
  const server = createServer((request, response) => {
    const answer = answers[request.url!.slice(1)];
    if (!answer || answer === 'hang') return; // never answers
    response.writeHead(answer.status, { 'Content-Type': answer.type }).end(answer.body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const kind of Object.keys(answers)) {
    it(`answers 503 verifier_unavailable when siteverify answers ${kind}`, async () => {
      const handler = createContactHandler({
        verifier: createTurnstileVerifier({ secret: 's', url: `${url}/${kind}`, timeoutMs: 500 }),
        inbox: { add: () => 1 },
        rateLimiter: createRateLimiter({ limit: 100, windowMs: 1000 }),
        allowedOrigins: ['https://example.com'],
      });
      const response = await handler(
        new Request('https://example.com/api/contact', {
          method: 'POST',
          headers: { Origin: 'https://example.com', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            name: 'Ana',
            email: 'ana@example.org',
            subject: 'Hi',
            message: 'M',
            turnstileToken: 't',
          }),
        }),
        '127.0.0.1',
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ ok: false, error: 'verifier_unavailable' });
    });
  }
});
