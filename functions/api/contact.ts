// Cloudflare Pages Function for POST /api/contact: the same handler as `ssg serve`, with the
// message handed to a webhook instead of a SQLite inbox. Configure it in the Pages project's
// environment variables (see the README): SITE_ORIGIN, TURNSTILE_SECRET_KEY, CONTACT_WEBHOOK_URL.
import { createContactHandler, type ContactHandler } from '../../src/contact/handler.ts';
import { createWebhookInbox } from '../../src/contact/inbox-webhook.ts';
import { createRateLimiter } from '../../src/contact/rate-limit.ts';
import { createTurnstileVerifier } from '../../src/contact/verifier.ts';

export interface Env {
  SITE_ORIGIN: string;
  ALLOWED_ORIGINS?: string;
  TURNSTILE_SECRET_KEY: string;
  TURNSTILE_VERIFY_URL?: string;
  TURNSTILE_EXPECTED_HOSTNAME?: string;
  CONTACT_WEBHOOK_URL: string;
  CONTACT_WEBHOOK_TOKEN?: string;
  RATE_LIMIT_MAX?: string;
  RATE_LIMIT_WINDOW_SECONDS?: string;
}

/** What Cloudflare passes a Pages Function (the part used here). */
export interface PagesContext {
  request: Request;
  env: Env;
}

// Per isolate: the rate limit is best effort on a platform that runs many; Cloudflare's own rate
// limiting rules can back it up.
let cached: { key: string; handler: ContactHandler } | undefined;

function numberSetting(env: Env, name: 'RATE_LIMIT_MAX' | 'RATE_LIMIT_WINDOW_SECONDS', fallback: number, rule: { min: number; whole: boolean }): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < rule.min || (rule.whole && !Number.isInteger(value))) {
    const kind = rule.whole ? 'a whole number' : 'a number';
    throw new Error(`${name} is "${raw}"; set it to ${kind} of at least ${rule.min} in the Pages project's environment variables.`);
  }
  return value;
}

function handlerFor(env: Env): ContactHandler {
  const key = JSON.stringify(env);
  if (cached?.key === key) return cached.handler;
  const missing = (['SITE_ORIGIN', 'TURNSTILE_SECRET_KEY', 'CONTACT_WEBHOOK_URL'] as const).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`Set ${missing.join(', ')} in the Pages project's environment variables.`);
  const origins = [env.SITE_ORIGIN, ...(env.ALLOWED_ORIGINS ?? '').split(',')].map((item) => item.trim()).filter(Boolean);
  const handler = createContactHandler({
    verifier: createTurnstileVerifier({ secret: env.TURNSTILE_SECRET_KEY, url: env.TURNSTILE_VERIFY_URL }),
    inbox: createWebhookInbox({ url: env.CONTACT_WEBHOOK_URL, token: env.CONTACT_WEBHOOK_TOKEN }),
    rateLimiter: createRateLimiter({
      limit: numberSetting(env, 'RATE_LIMIT_MAX', 5, { min: 1, whole: true }),
      windowMs: numberSetting(env, 'RATE_LIMIT_WINDOW_SECONDS', 600, { min: 0, whole: false }) * 1000,
    }),
    allowedOrigins: origins.map((origin) => new URL(origin).origin),
    expectedHostname: env.TURNSTILE_EXPECTED_HOSTNAME ?? new URL(env.SITE_ORIGIN).hostname,
  });
  cached = { key, handler };
  return handler;
}

export async function onRequest(context: PagesContext): Promise<Response> {
  // Cloudflare's edge sets this header and overwrites one sent by the client, so it is trusted here;
  // the limiter keys IPv6 by /64.
  const clientAddress = context.request.headers.get('CF-Connecting-IP') ?? '';
  return handlerFor(context.env)(context.request, clientAddress);
}
