// The contact endpoint on Cloudflare: its inbox is the D1 database bound as CONTACT_DB, and
// messages go from there to the webhook and/or by mail through an HTTP mail API. The Pages
// Function (functions/api/contact.ts) stores and makes the first attempt; the companion Worker
// (workers/contact-sweeper/) retries the rest every minute. Both read their settings here, so
// they deliver alike.
import {
  createD1Inbox,
  createMailApiSender,
  createWebhookSender,
  deliverDue,
  EDGE_DELIVERY,
  requireBinding,
  type ApiRoute,
  type D1Binding,
  type DeliveryPassOptions,
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
  MAIL_API_URL?: string;
  MAIL_API_TOKEN?: string;
  MAIL_TO?: string;
  MAIL_FROM?: string;
  SITE_ORIGIN?: string;
  DELIVERY_RETRY_BASE_SECONDS?: string;
  DELIVERY_RETRY_MAX_SECONDS?: string;
  DELIVERY_CLAIM_SECONDS?: string;
}

export const contactInbox = (env: ContactEdgeEnv) =>
  createD1Inbox(requireBinding(env.CONTACT_DB, 'CONTACT_DB', 'D1 database'));

/**
 * Where messages go: the webhook, mail through an HTTP mail API, or both (a message counts as
 * delivered once each took it). None when neither is set: they then wait in D1, as `ssg serve`'s
 * do without SMTP.
 */
export function contactSenders(settings: Settings, route: ApiRoute): MessageSender[] {
  const senders: MessageSender[] = [];
  const webhook = settings.raw('CONTACT_WEBHOOK_URL');
  if (webhook) {
    senders.push(
      createWebhookSender({
        url: webhook,
        token: settings.raw('CONTACT_WEBHOOK_TOKEN') || undefined,
        type: route.form?.webhookType ?? 'form-message',
        idPrefix: route.form?.messageIdPrefix ?? 'message',
        timeoutMs: webhookTimeoutMs(settings),
      }),
    );
  }
  const mailApi = settings.raw('MAIL_API_URL');
  if (mailApi) {
    const to = settings.required('MAIL_TO', 'mail through MAIL_API_URL needs a recipient');
    senders.push(
      createMailApiSender({
        url: mailApi,
        token: settings.required('MAIL_API_TOKEN', 'the mail API needs its key'),
        to,
        from: settings.required('MAIL_FROM', 'the mail API sends only from an address of a domain it has verified'),
        domain: new URL(
          settings.origin('SITE_ORIGIN', settings.required('SITE_ORIGIN', "it names the mail's Message-ID")),
        ).hostname,
        presentation: route.form,
        timeoutMs: webhookTimeoutMs(settings),
      }),
    );
  }
  return senders;
}

const webhookTimeoutMs = (settings: Settings) =>
  settings.number('CONTACT_WEBHOOK_TIMEOUT_SECONDS', WEBHOOK_TIMEOUT_MS / 1000, { min: 1 }) * 1000;

/** One bounded delivery pass, after an answer or from the sweep. It never throws. */
export async function deliverContactMessages(
  env: ContactEdgeEnv,
  settings: Settings,
  route: ApiRoute,
  pass: { maxMessages: number; budgetMs: number },
): Promise<DeliveryPassResult> {
  let options: DeliveryPassOptions;
  try {
    options = {
      inbox: contactInbox(env),
      senders: contactSenders(settings, route),
      retryBaseMs: settings.number('DELIVERY_RETRY_BASE_SECONDS', EDGE_DELIVERY.retryBaseMs / 1000) * 1000,
      retryMaxMs: settings.number('DELIVERY_RETRY_MAX_SECONDS', EDGE_DELIVERY.retryMaxMs / 1000) * 1000,
      // A claim outlasts an attempt, so only a deliverer that died leaves one to run out.
      claimMs: Math.max(
        settings.number('DELIVERY_CLAIM_SECONDS', EDGE_DELIVERY.claimMs / 1000) * 1000,
        webhookTimeoutMs(settings) + 1000,
      ),
      ...pass,
      log: (line) => console.log(line),
    };
  } catch (error) {
    // Set-up problems are the function's to report (it answers 503); a pass only says it did nothing.
    console.error(`contact: no delivery (${error instanceof Error ? error.message : String(error)})`);
    return { delivered: 0, failed: 0 };
  }
  if (options.senders.length === 0) return { delivered: 0, failed: 0 };
  return deliverDue(options);
}

/** After an answer: the new message and a few due ones; with one attempt's time-out, within the ~30 s `waitUntil` allows. */
export const FIRST_ATTEMPT = { maxMessages: 3, budgetMs: 10_000 } as const;
/** A sweep: within one scheduled run's time. */
export const SWEEP = { maxMessages: 50, budgetMs: 25_000 } as const;
