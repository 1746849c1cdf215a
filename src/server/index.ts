// The public surface for a site's API routes: `import { defineApiRoute } from 'ssg/server'`.
export { defineApiRoute } from './api-route.ts';
export type { ApiHandler, ApiRoute, ApiServices, FormPresentation } from './api-route.ts';
export { createRateLimiter } from './rate-limit.ts';
export type { RateDecision, RateLimiter } from './rate-limit.ts';
export { hasControlCharacters } from './control-characters.ts';
export { readBodyLimited } from './request-body.ts';
export type { FormMessage, Inbox, NewFormMessage, StoredMessage } from './message.ts';
export type { Settings } from './settings.ts';
// Host adapters: a route as a Cloudflare Pages Function, messages handed to a webhook.
export { pagesFunction } from './pages-function.ts';
export type { PagesContext, PagesPlatform } from './pages-function.ts';
export { createWebhookInbox } from './inbox-webhook.ts';
