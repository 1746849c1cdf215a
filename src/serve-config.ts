import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseProxyTrust, type ProxyTrust } from './client-address.ts';
import { SsgError } from './errors.ts';

/** Everything `ssg serve` reads from its environment. The README lists the same variables. */
export interface ServeConfig {
  host: string;
  port: number;
  siteDir: string;
  dataDir: string;
  /** Origins allowed to post to the contact endpoint. */
  allowedOrigins: string[];
  turnstile: { secret: string; verifyUrl?: string; expectedHostname?: string };
  rateLimit: { max: number; windowMs: number };
  /** Which proxies in front are believed about the client's address. */
  trustProxy: ProxyTrust;
  smtp?: { host: string; port: number; secure: boolean; user?: string; pass?: string; from: string; to: string };
  delivery: { retryBaseMs: number; retryMaxMs: number; pollMs: number };
  shutdownTimeoutMs: number;
}

export const SERVE_VARIABLES = [
  'HOST',
  'PORT',
  'SITE_DIR',
  'DATA_DIR',
  'SITE_ORIGIN',
  'ALLOWED_ORIGINS',
  'TURNSTILE_SECRET_KEY',
  'TURNSTILE_VERIFY_URL',
  'TURNSTILE_EXPECTED_HOSTNAME',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_SECONDS',
  'TRUST_PROXY',
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_SECURE',
  'SMTP_USER',
  'SMTP_PASS',
  'MAIL_FROM',
  'MAIL_TO',
  'DELIVERY_RETRY_BASE_SECONDS',
  'DELIVERY_RETRY_MAX_SECONDS',
  'DELIVERY_POLL_SECONDS',
  'SHUTDOWN_TIMEOUT_SECONDS',
] as const;

type Env = Record<string, string | undefined>;

function invalid(name: string, why: string): SsgError {
  return new SsgError('ServeConfigInvalid', `${name} ${why}.`, {}, { hint: `Set ${name} in the environment; the README lists every variable.` });
}

function number(env: Env, name: string, fallback: number, { min = 0 } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw invalid(name, `is "${raw}", not a number of at least ${min}`);
  return value;
}

function wholeNumber(env: Env, name: string, fallback: number, { min = 0 } = {}): number {
  const value = number(env, name, fallback, { min });
  if (!Number.isInteger(value)) throw invalid(name, `is "${env[name]}", not a whole number`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no'].includes(raw)) return false;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  throw invalid(name, `is "${env[name]}", not true or false`);
}

function origin(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http');
    return url.origin;
  } catch {
    throw invalid(name, `has "${value}", which is not an http(s) origin such as https://example.com`);
  }
}

function proxyTrust(env: Env): ProxyTrust {
  try {
    return parseProxyTrust(env.TRUST_PROXY);
  } catch (error) {
    throw new SsgError('ServeConfigInvalid', `TRUST_PROXY ${(error as Error).message}.`, {}, {
      hint: 'Use false, true (one proxy in front), a hop count, or a list such as "loopback" or "10.0.0.0/8,cloudflare"; the README explains each.',
    });
  }
}

/** The site's origin: SITE_ORIGIN, else baseUrl of content/site.yaml. */
function siteOrigin(env: Env, root: string): string | undefined {
  if (env.SITE_ORIGIN) return origin('SITE_ORIGIN', env.SITE_ORIGIN);
  const file = path.join(root, 'content', 'site.yaml');
  if (!existsSync(file)) return undefined;
  const baseUrl = (parse(readFileSync(file, 'utf8')) as { baseUrl?: unknown } | null)?.baseUrl;
  return typeof baseUrl === 'string' ? origin('baseUrl in content/site.yaml', baseUrl) : undefined;
}

export function readServeConfig(env: Env, root: string, overrides: { port?: number; dir?: string } = {}): ServeConfig {
  const secret = env.TURNSTILE_SECRET_KEY;
  if (!secret) throw invalid('TURNSTILE_SECRET_KEY', 'is not set; the contact endpoint cannot check the bot challenge without it');
  const site = siteOrigin(env, root);
  const extra = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => origin('ALLOWED_ORIGINS', item));
  const allowedOrigins = [...new Set([...(site ? [site] : []), ...extra])];
  if (allowedOrigins.length === 0) throw invalid('SITE_ORIGIN', 'is not set and content/site.yaml has no baseUrl');

  const expected = env.TURNSTILE_EXPECTED_HOSTNAME;
  let smtp: ServeConfig['smtp'];
  if (env.SMTP_HOST) {
    if (!env.MAIL_TO) throw invalid('MAIL_TO', 'is not set; it is needed with SMTP_HOST');
    const secure = flag(env, 'SMTP_SECURE');
    smtp = {
      host: env.SMTP_HOST,
      port: number(env, 'SMTP_PORT', secure ? 465 : 587, { min: 1 }),
      secure,
      user: env.SMTP_USER || undefined,
      pass: env.SMTP_PASS || undefined,
      from: env.MAIL_FROM || env.MAIL_TO,
      to: env.MAIL_TO,
    };
  }

  return {
    host: env.HOST || '127.0.0.1',
    port: overrides.port ?? number(env, 'PORT', 8080),
    siteDir: path.resolve(root, overrides.dir ?? env.SITE_DIR ?? 'dist'),
    dataDir: path.resolve(root, env.DATA_DIR || 'data'),
    allowedOrigins,
    turnstile: {
      secret,
      verifyUrl: env.TURNSTILE_VERIFY_URL || undefined,
      // Empty turns the hostname check off; unset checks the site's own hostname.
      expectedHostname: expected === undefined ? (site ? new URL(site).hostname : undefined) : expected || undefined,
    },
    rateLimit: { max: wholeNumber(env, 'RATE_LIMIT_MAX', 5, { min: 1 }), windowMs: number(env, 'RATE_LIMIT_WINDOW_SECONDS', 600) * 1000 },
    trustProxy: proxyTrust(env),
    smtp,
    delivery: {
      retryBaseMs: number(env, 'DELIVERY_RETRY_BASE_SECONDS', 30) * 1000,
      retryMaxMs: number(env, 'DELIVERY_RETRY_MAX_SECONDS', 3600) * 1000,
      pollMs: number(env, 'DELIVERY_POLL_SECONDS', 10, { min: 0.01 }) * 1000,
    },
    shutdownTimeoutMs: number(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10) * 1000,
  };
}
