import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRequest, type Env } from '../functions/api/contact.ts';
import { startSiteverify, startWebhook } from './helpers/stand-ins.ts';

const ORIGIN = 'https://validators.example';

describe('the Cloudflare Pages Function functions/api/contact', () => {
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let env: Env;

  beforeAll(async () => {
    siteverify = await startSiteverify('validators.example');
    webhook = await startWebhook();
    env = {
      SITE_ORIGIN: ORIGIN,
      TURNSTILE_SECRET_KEY: 'cf-secret',
      TURNSTILE_VERIFY_URL: siteverify.url,
      CONTACT_WEBHOOK_URL: webhook.url,
      CONTACT_WEBHOOK_TOKEN: 'hook-token',
    };
  });
  afterAll(async () => {
    await siteverify?.close();
    await webhook?.close();
  });

  // As the platform calls it: a Request with Cloudflare's client-address header, and the env.
  const call = (body: unknown, headers: Record<string, string> = {}) =>
    onRequest({
      request: new Request(`${ORIGIN}/api/contact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: ORIGIN, 'CF-Connecting-IP': '192.0.2.44', ...headers },
        body: JSON.stringify(body),
      }),
      env,
    });
  const valid = { name: 'Grace', email: 'grace@example.org', subject: 'Hello', message: 'From the edge', turnstileToken: 'pass-cf' };

  it('verifies the token with the client address and hands the message to the webhook before answering ok', async () => {
    const response = await call(valid);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(siteverify.requests.at(-1)).toEqual({ secret: 'cf-secret', response: 'pass-cf', remoteip: '192.0.2.44' });
    expect(webhook.received).toHaveLength(1);
    expect(webhook.received[0]!.headers.authorization).toBe('Bearer hook-token');
    expect(webhook.received[0]!.body).toMatchObject({
      type: 'contact-message',
      name: 'Grace',
      email: 'grace@example.org',
      subject: 'Hello',
      message: 'From the edge',
      clientAddress: '192.0.2.44',
    });
  });

  it('answers 503 when the webhook fails, so the visitor knows to try again', async () => {
    webhook.state.status = 500;
    const response = await call(valid);
    webhook.state.status = 200;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, error: 'storage_failed' });
  });

  it('applies the same checks as the Node server', async () => {
    const before = webhook.received.length;
    expect((await call({ ...valid, turnstileToken: 'bad' })).status).toBe(403);
    expect((await call({ ...valid, email: 'nope' })).status).toBe(400);
    expect((await call(valid, { Origin: 'https://elsewhere.example' })).status).toBe(403);
    expect(webhook.received.length).toBe(before);
  });
});
