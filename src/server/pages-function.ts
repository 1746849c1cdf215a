// Runs one API route as a Cloudflare Pages Function. The platform part: settings from the Pages
// project's environment variables, the client address Cloudflare's edge sets, the bindings the
// function's file turns into an inbox (D1), and a first delivery attempt after the answer.
import { catalogueError, formatError, SsgError } from '../errors/errors.ts';
import type { ApiHandler, ApiRoute } from './api-route.ts';
import type { Inbox } from '../inbox/message.ts';
import { readSettings, type Env, type Settings } from './settings.ts';

/** What Cloudflare passes a Pages Function (the part used here). */
export interface PagesContext<E = Env> {
  request: Request;
  env: E;
  /** Keeps the function alive for work after its answer (Cloudflare gives it about 30 s more). */
  waitUntil?(promise: Promise<unknown>): void;
}

export interface PagesPlatform<E = Env> {
  /** The inbox for the route's messages, from the function's settings and bindings; it throws when one is missing. */
  inbox(settings: Settings, route: ApiRoute, env: E): Inbox;
  /**
   * Work after each accepted message (a 2xx answer to a POST), given to `waitUntil`: the first
   * delivery attempt. It must not throw.
   */
  afterAccepted?(settings: Settings, route: ApiRoute, env: E): Promise<unknown>;
  /** Headers every answer carries: a host's header rules (`_headers`) do not reach a Function's answers. */
  headers?: Readonly<Record<string, string>>;
}

const pagesFailure = (_name: string, problem: string) => catalogueError('PagesSettingInvalid', [problem]);

/** Settings read from a Pages project's (or a Worker's) environment, failing with PagesSettingInvalid. */
export function pagesSettings(env: object): Settings {
  return readSettings(env as Env, pagesFailure);
}

/** Fails with PagesBindingMissing unless the binding `name` is set. */
export function requireBinding<T>(value: T | undefined | null, name: string, kind: string): T {
  if (value === undefined || value === null) throw catalogueError('PagesBindingMissing', [name, kind]);
  return value;
}

interface Prepared {
  handler: ApiHandler;
  settings: Settings;
}

/**
 * The handler for one set of settings. Its inbox is made from the bindings of the request being
 * answered (`currentEnv`): a binding is an object Cloudflare may hand over anew, and one closed
 * over at set-up could be stale. It is made once here too, so a missing binding fails at once.
 */
function prepare<E extends object>(route: ApiRoute, platform: PagesPlatform<E>, env: E, currentEnv: () => E): Prepared {
  const settings = pagesSettings(env);
  const siteOrigin = settings.origin(
    'SITE_ORIGIN',
    settings.required('SITE_ORIGIN', 'it is the origin allowed to post'),
  );
  const allowedOrigins = [...new Set([siteOrigin, ...settings.origins('ALLOWED_ORIGINS')])];
  const rateLimit = {
    max: settings.number('RATE_LIMIT_MAX', 5, { min: 1, whole: true }),
    windowMs: settings.number('RATE_LIMIT_WINDOW_SECONDS', 600) * 1000,
  };
  // Settings first, then bindings: each failure is reported by its own name.
  platform.inbox(settings, route, env);
  const handler = route.create({
    settings,
    siteOrigin,
    allowedOrigins,
    rateLimit,
    inbox: { add: (message) => platform.inbox(settings, route, currentEnv()).add(message) },
  });
  return { handler, settings };
}

/** The settings' identity: their values, and which bindings are present (a binding is an object). */
function envKey(env: object): string {
  return JSON.stringify(
    Object.entries(env).map(([name, value]) => [name, typeof value === 'string' ? value : typeof value]),
  );
}

function withHeaders(response: Response, headers: Readonly<Record<string, string>> | undefined): Response {
  if (!headers) return response;
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) if (!answer.headers.has(name)) answer.headers.set(name, value);
  return answer;
}

/** A function that cannot be set up stores nothing: it says so in its log and answers 503, never 200. */
function notConfigured(error: unknown): Response {
  console.error(
    error instanceof SsgError
      ? formatError(error)
      : `[PagesFunctionFailed] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return new Response(JSON.stringify({ ok: false, error: 'not_configured' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** The Pages Function `onRequest` for a route: one handler per isolate and set of settings. */
export function pagesFunction<E extends object>(
  route: ApiRoute,
  platform: PagesPlatform<E>,
): (context: PagesContext<E>) => Promise<Response> {
  // Per isolate: a rate limit there is best effort on a platform that runs many; Cloudflare's own
  // rate limiting rules can back it up.
  let cached: { key: string; prepared: Prepared } | undefined;
  let currentEnv: E | undefined;
  return async (context) => {
    currentEnv = context.env;
    const key = envKey(context.env);
    if (cached?.key !== key) {
      try {
        cached = { key, prepared: prepare(route, platform, context.env, () => currentEnv ?? context.env) };
      } catch (error) {
        cached = undefined;
        return withHeaders(notConfigured(error), platform.headers);
      }
    }
    const { handler, settings } = cached.prepared;
    const env = context.env;
    // Cloudflare's edge sets this header and overwrites one sent by the client, so it is trusted here.
    const response = await handler(context.request, context.request.headers.get('CF-Connecting-IP') ?? '');
    if (context.request.method === 'POST' && response.ok && platform.afterAccepted) {
      const after = platform.afterAccepted(settings, route, env);
      if (context.waitUntil) context.waitUntil(after);
      else await after;
    }
    return withHeaders(response, platform.headers);
  };
}
