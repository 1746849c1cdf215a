// Runs one API route as a Cloudflare Pages Function. The platform part: settings from the Pages
// project's environment variables, the client address Cloudflare's edge sets, and an inbox the
// function's file chooses (SQLite cannot run there; a webhook can).
import type { ApiHandler, ApiRoute } from './api-route.ts';
import type { Inbox } from './message.ts';
import { readSettings, type Env, type Settings } from './settings.ts';

/** What Cloudflare passes a Pages Function (the part used here). */
export interface PagesContext<E = Env> {
  request: Request;
  env: E;
}

export interface PagesPlatform {
  /** The inbox for the route's messages, from the function's settings. */
  inbox(settings: Settings, route: ApiRoute): Inbox;
}

const pagesFailure = (_name: string, problem: string) => new Error(`${problem}, in the Pages project's environment variables.`);

function createHandler(route: ApiRoute, platform: PagesPlatform, env: Env): ApiHandler {
  const settings = readSettings(env, pagesFailure);
  const siteOrigin = settings.origin('SITE_ORIGIN', settings.required('SITE_ORIGIN', 'it is the origin allowed to post'));
  return route.create({
    settings,
    siteOrigin,
    allowedOrigins: [...new Set([siteOrigin, ...settings.origins('ALLOWED_ORIGINS')])],
    rateLimit: {
      max: settings.number('RATE_LIMIT_MAX', 5, { min: 1, whole: true }),
      windowMs: settings.number('RATE_LIMIT_WINDOW_SECONDS', 600) * 1000,
    },
    inbox: platform.inbox(settings, route),
  });
}

/** The Pages Function `onRequest` for a route: one handler per isolate and set of settings. */
export function pagesFunction<E extends object>(route: ApiRoute, platform: PagesPlatform): (context: PagesContext<E>) => Promise<Response> {
  // Per isolate: a rate limit there is best effort on a platform that runs many; Cloudflare's own
  // rate limiting rules can back it up.
  let cached: { key: string; handler: ApiHandler } | undefined;
  return async (context) => {
    const key = JSON.stringify(context.env);
    if (cached?.key !== key) cached = { key, handler: createHandler(route, platform, context.env as Env) };
    // Cloudflare's edge sets this header and overwrites one sent by the client, so it is trusted here.
    return cached.handler(context.request, context.request.headers.get('CF-Connecting-IP') ?? '');
  };
}
