// API routes a site declares: one file per route in site/api/, `site/api/<name>.ts` answering at
// `/api/<name>`. A route is a factory: the platform (`ssg serve`, a Pages Function) hands it its
// settings and services, and it returns a web handler, a Request in and a Response out.
import type { MailPresentation } from '../inbox/mail-compose.ts';
import type { Inbox } from '../inbox/message.ts';
import type { Settings } from './settings.ts';

/** Answers one request; `clientAddress` is the visitor's address as the platform determined it. */
export type ApiHandler = (request: Request, clientAddress: string) => Promise<Response>;

export interface ApiServices {
  /** The environment, read with errors that name the variable and where to set it. */
  settings: Settings;
  /** The site's own origin (SITE_ORIGIN, else baseUrl), when known. */
  siteOrigin?: string;
  /** Origins allowed to call the route: the site's and ALLOWED_ORIGINS. */
  allowedOrigins: readonly string[];
  /** Requests per client per window (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS). */
  rateLimit: { max: number; windowMs: number };
  /** Where accepted form messages go: durable before `add` resolves. */
  inbox: Inbox;
}

/** A route that stores form messages says how they are named in mail and webhooks. */
export interface FormPresentation extends MailPresentation {
  /** The `type` of each message a webhook inbox posts. */
  webhookType: string;
}

export interface ApiRoute {
  create(services: ApiServices): ApiHandler;
  form?: FormPresentation;
}

export function defineApiRoute(route: ApiRoute): ApiRoute {
  return route;
}

/** Lowercase letters, digits and single hyphens: the same rule as article slugs. */
const ROUTE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ROUTE_FILE = /^(.+)\.(ts|tsx|mts|js|mjs)$/;

/**
 * The URL path a file in site/api/ answers at, or undefined when the file is not a route: a
 * dotfile, a declaration or test file, a name that is not a plain slug (helpers go beside the
 * folder, not in it).
 */
export function apiRoutePath(fileName: string): string | undefined {
  const match = ROUTE_FILE.exec(fileName);
  if (!match || /\.(d|test|spec)$/.test(match[1]!)) return undefined;
  return ROUTE_NAME.test(match[1]!) ? `/api/${match[1]}` : undefined;
}

/** Whether a module's default export is a route: an object with a `create` function. */
export function isApiRoute(value: unknown): value is ApiRoute {
  return typeof value === 'object' && value !== null && typeof (value as { create?: unknown }).create === 'function';
}
