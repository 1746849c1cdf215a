// Cloudflare Pages Function for POST /api/contact: the site's route (site/api/contact.ts), as
// `ssg serve` runs it, with its inbox in the D1 database bound as CONTACT_DB. Each message is
// stored before the visitor is told it arrived; the first delivery attempt runs after the answer,
// and the companion Worker (workers/contact-sweeper/) retries the rest. Settings and bindings:
// docs/deploy-cloudflare-pages.md.
import contact from '../../site/api/contact.ts';
import {
  contactInbox,
  contactSenders,
  deliverContactMessages,
  FIRST_ATTEMPT,
  type ContactEdgeEnv,
} from '../../site/contact/edge.ts';
import { API_SECURITY_HEADERS } from '../../site/security-headers.ts';
import { pagesFunction } from 'ssg/server';

export interface Env extends ContactEdgeEnv {
  SITE_ORIGIN: string;
  ALLOWED_ORIGINS?: string;
  TURNSTILE_SECRET_KEY: string;
  TURNSTILE_VERIFY_URL?: string;
  TURNSTILE_EXPECTED_HOSTNAME?: string;
  RATE_LIMIT_MAX?: string;
  RATE_LIMIT_WINDOW_SECONDS?: string;
}

export type { PagesContext } from 'ssg/server';

export const onRequest = pagesFunction<Env>(contact, {
  inbox(settings, route, env) {
    // Where messages go is checked at set-up too, so a wrong setting fails closed before any 200.
    contactSenders(settings, route);
    return contactInbox(env);
  },
  afterAccepted: (settings, route, env) => deliverContactMessages(env, settings, route, FIRST_ATTEMPT),
  headers: API_SECURITY_HEADERS,
});
