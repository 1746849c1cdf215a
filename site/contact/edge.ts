// The contact endpoint on Cloudflare: its inbox is the D1 database bound as CONTACT_DB, and
// messages go from there to the webhook. The Pages Function (functions/api/contact.ts) stores
// and makes the first attempt; the companion Worker (workers/contact-sweeper/) retries the rest
// every minute. Both read their settings here, so they deliver alike.
import {
  createD1Inbox,
  createWebhookSender,
  deliverDue,
  EDGE_DELIVERY,
  requireBinding,
  type ApiRoute,
  type D1Binding,
  type DeliveryPassResult,
  type MessageSender,
  type Settings,
  WEBHOOK_TIMEOUT_MS,
} from 'ssg/server';

export interface ContactEdgeEnv {
  /** The D1 database holding the messages (docs/deploy-cloudflare-pages.md). */
  CONTACT_DB?: D1Binding;
  CONTACT_WEBHOOK_URL?: string;
  CONTACT_WEBHOOK_TOKEN?: string;
  CONTACT_WEBHOOK_TIMEOUT_SECONDS?: string;
  DELIVERY_RETRY_BASE_SECONDS?: string;
  DELIVERY_RETRY_MAX_SECONDS?: string;
  DELIVERY_CLAIM_SECONDS?: string;
}

export const contactInbox = (env: ContactEdgeEnv) => createD1Inbox(requireBinding(env.CONTACT_DB, 'CONTACT_DB', 'D1 database'));

/** Where messages go; none when no webhook is set (they then wait in D1, as `ssg serve`'s do without SMTP). */
export function contactSenders(settings: Settings, route: ApiRoute): MessageSender[] {
  const url = settings.raw('CONTACT_WEBHOOK_URL');
  if (!url) return [];
  return [
    createWebhookSender({
      url,
      token: settings.raw('CONTACT_WEBHOOK_TOKEN') || undefined,
      type: route.form?.webhookType ?? 'form-message',
      idPrefix: route.form?.messageIdPrefix ?? 'message',
      timeoutMs: webhookTimeoutMs(settings),
    }),
  ];
}

const webhookTimeoutMs = (settings: Settings) => settings.number('CONTACT_WEBHOOK_TIMEOUT_SECONDS', WEBHOOK_TIMEOUT_MS / 1000, { min: 1 }) * 1000;

/** One bounded delivery pass: after an answer (`first`, a few messages) or from the sweep. */
export async function deliverContactMessages(
  env: ContactEdgeEnv,
  settings: Settings,
  route: ApiRoute,
  pass: { maxMessages: number; budgetMs: number },
): Promise<DeliveryPassResult> {
  const senders = contactSenders(settings, route);
  if (senders.length === 0) return { delivered: 0, failed: 0 };
  return deliverDue({
    inbox: contactInbox(env),
    senders,
    retryBaseMs: settings.number('DELIVERY_RETRY_BASE_SECONDS', EDGE_DELIVERY.retryBaseMs / 1000) * 1000,
    retryMaxMs: settings.number('DELIVERY_RETRY_MAX_SECONDS', EDGE_DELIVERY.retryMaxMs / 1000) * 1000,
    // A claim outlasts an attempt, so only a deliverer that died leaves one to run out.
    claimMs: Math.max(settings.number('DELIVERY_CLAIM_SECONDS', EDGE_DELIVERY.claimMs / 1000) * 1000, webhookTimeoutMs(settings) + 1000),
    ...pass,
    log: (line) => console.log(line),
  });
}

/** After an answer: the new message and a few due ones, within what `waitUntil` allows. */
export const FIRST_ATTEMPT = { maxMessages: 3, budgetMs: 20_000 } as const;
/** A sweep: within one scheduled run's time. */
export const SWEEP = { maxMessages: 50, budgetMs: 25_000 } as const;
