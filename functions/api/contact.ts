// Cloudflare Pages Function for POST /api/contact: the site's route (site/api/contact.ts), as
// `ssg serve` runs it, with each message handed to a webhook instead of a SQLite inbox. Configure
// it in the Pages project's environment variables (see the README): SITE_ORIGIN,
// TURNSTILE_SECRET_KEY, CONTACT_WEBHOOK_URL.
import contact from '../../site/api/contact.ts';
import { createWebhookInbox, pagesFunction } from 'ssg/server';

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

export type { PagesContext } from 'ssg/server';

export const onRequest = pagesFunction<Env>(contact, {
  inbox: (settings, route) =>
    createWebhookInbox({
      url: settings.required('CONTACT_WEBHOOK_URL', 'accepted messages are posted to it'),
      token: settings.raw('CONTACT_WEBHOOK_TOKEN') || undefined,
      type: route.form?.webhookType ?? 'form-message',
    }),
});
