import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseProxyTrust, type ProxyTrust } from './client-address.ts';
import { catalogueError } from '../errors/errors.ts';
import { readSettings, type SettingFailure, type Settings } from './settings.ts';

/** Everything `ssg serve` reads from its environment. docs/contact-endpoint.md lists the same variables. */
export interface ServeConfig {
  /** The site's folder: its API routes are in site/api/. */
  root: string;
  host: string;
  port: number;
  siteDir: string;
  dataDir: string;
  /** The site's own origin (SITE_ORIGIN, else baseUrl of content/site.yaml). */
  siteOrigin?: string;
  /** Origins allowed to call the site's API routes. */
  allowedOrigins: string[];
  rateLimit: { max: number; windowMs: number };
  /** Which proxies in front are believed about the client's address. */
  trustProxy: ProxyTrust;
  smtp?: { host: string; port: number; secure: boolean; user?: string; pass?: string; from: string; to: string };
  delivery: { retryBaseMs: number; retryMaxMs: number; pollMs: number };
  shutdownTimeoutMs: number;
  /** The environment, for the settings of the site's API routes. */
  settings: Settings;
}

type Env = Record<string, string | undefined>;

/** A missing or wrong variable stops `ssg serve` at start, naming it. */
export const serveSettingFailure: SettingFailure = (name, problem) =>
  catalogueError('ServeConfigInvalid', ['setting', name, problem]);

function proxyTrust(env: Env): ProxyTrust {
  try {
    return parseProxyTrust(env.TRUST_PROXY);
  } catch (error) {
    throw catalogueError('ServeConfigInvalid', ['trustProxy', (error as Error).message]);
  }
}

/** The site's origin: SITE_ORIGIN, else baseUrl of content/site.yaml. */
function siteOrigin(settings: Settings, root: string): string | undefined {
  const configured = settings.raw('SITE_ORIGIN');
  if (configured) return settings.origin('SITE_ORIGIN', configured);
  const file = path.join(root, 'content', 'site.yaml');
  if (!existsSync(file)) return undefined;
  const baseUrl = (parse(readFileSync(file, 'utf8')) as { baseUrl?: unknown } | null)?.baseUrl;
  return typeof baseUrl === 'string' ? settings.origin('baseUrl in content/site.yaml', baseUrl) : undefined;
}

function smtpConfig(settings: Settings): ServeConfig['smtp'] {
  const host = settings.raw('SMTP_HOST');
  if (!host) return undefined;
  const to = settings.required('MAIL_TO', 'it is needed with SMTP_HOST');
  const secure = settings.flag('SMTP_SECURE');
  return {
    host,
    port: settings.number('SMTP_PORT', secure ? 465 : 587, { min: 1 }),
    secure,
    user: settings.raw('SMTP_USER') || undefined,
    pass: settings.raw('SMTP_PASS') || undefined,
    from: settings.raw('MAIL_FROM') || to,
    to,
  };
}

export function readServeConfig(env: Env, root: string, overrides: { port?: number; dir?: string } = {}): ServeConfig {
  const settings = readSettings(env, serveSettingFailure);
  const site = siteOrigin(settings, root);
  const allowedOrigins = [...new Set([...(site ? [site] : []), ...settings.origins('ALLOWED_ORIGINS')])];
  if (allowedOrigins.length === 0)
    throw serveSettingFailure('SITE_ORIGIN', 'SITE_ORIGIN is not set and content/site.yaml has no baseUrl');
  return {
    root,
    host: env.HOST || '127.0.0.1',
    port: overrides.port ?? settings.number('PORT', 8080),
    siteDir: path.resolve(root, overrides.dir ?? env.SITE_DIR ?? 'dist'),
    dataDir: path.resolve(root, env.DATA_DIR || 'data'),
    siteOrigin: site,
    allowedOrigins,
    rateLimit: {
      max: settings.number('RATE_LIMIT_MAX', 5, { min: 1, whole: true }),
      windowMs: settings.number('RATE_LIMIT_WINDOW_SECONDS', 600) * 1000,
    },
    trustProxy: proxyTrust(env),
    smtp: smtpConfig(settings),
    delivery: {
      retryBaseMs: settings.number('DELIVERY_RETRY_BASE_SECONDS', 30) * 1000,
      retryMaxMs: settings.number('DELIVERY_RETRY_MAX_SECONDS', 3600) * 1000,
      pollMs: settings.number('DELIVERY_POLL_SECONDS', 10, { min: 0.01 }) * 1000,
    },
    shutdownTimeoutMs: settings.number('SHUTDOWN_TIMEOUT_SECONDS', 10) * 1000,
    settings,
  };
}
