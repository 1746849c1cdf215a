// The public surface for a site's API routes: `import { defineApiRoute } from 'ssg/server'`.
export { defineApiRoute } from './api-route.ts';
export type { ApiHandler, ApiRoute, ApiServices, FormPresentation } from './api-route.ts';
export { createRateLimiter } from './rate-limit.ts';
export type { RateDecision, RateLimiter } from './rate-limit.ts';
export { hasControlCharacters } from '../base/control-characters.ts';
export { readBodyLimited } from './request-body.ts';
export type { FormMessage, Inbox, MessageSender, NewFormMessage, StoredMessage } from '../inbox/message.ts';
export { deliveryIdOf } from '../inbox/message.ts';
export type { Settings } from './settings.ts';
// Host adapters: a route as a Cloudflare Pages Function, its inbox in D1, delivery to a webhook.
export { pagesFunction, pagesSettings, requireBinding } from './pages-function.ts';
export type { PagesContext, PagesPlatform } from './pages-function.ts';
export { createD1Inbox } from '../inbox/inbox-d1.ts';
export type { ClaimingInbox, D1Binding, D1Inbox, D1Statement } from '../inbox/inbox-d1.ts';
export { deliverDue, EDGE_DELIVERY } from '../inbox/edge-delivery.ts';
export type { DeliveryPassOptions, DeliveryPassResult } from '../inbox/edge-delivery.ts';
export { createWebhookSender, WEBHOOK_TIMEOUT_MS } from '../inbox/webhook-sender.ts';
export type { WebhookSenderOptions } from '../inbox/webhook-sender.ts';
export { createMailApiSender } from '../inbox/mail-api-sender.ts';
export type { MailApiOptions } from '../inbox/mail-api-sender.ts';
