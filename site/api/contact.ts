// POST /api/contact: the contact form's endpoint. The platform (`ssg serve`, or the Pages Function
// in functions/api/contact.ts) supplies the inbox, the origins and the rate limit; the Turnstile
// settings are read here (docs/contact-endpoint.md lists them).
import { createRateLimiter, defineApiRoute } from 'ssg/server';
import { createContactHandler } from '../contact/handler.ts';
import { createTurnstileVerifier } from '../contact/turnstile.ts';

export default defineApiRoute({
  form: { subjectPrefix: 'Contact form: ', messageIdPrefix: 'contact', webhookType: 'contact-message' },
  create({ settings, siteOrigin, allowedOrigins, rateLimit, inbox }) {
    const secret = settings.required(
      'TURNSTILE_SECRET_KEY',
      'the contact endpoint cannot check the bot challenge without it',
    );
    const expected = settings.raw('TURNSTILE_EXPECTED_HOSTNAME');
    return createContactHandler({
      verifier: createTurnstileVerifier({ secret, url: settings.raw('TURNSTILE_VERIFY_URL') || undefined }),
      inbox,
      rateLimiter: createRateLimiter({ limit: rateLimit.max, windowMs: rateLimit.windowMs }),
      allowedOrigins,
      // Empty turns the hostname check off; unset checks the site's own hostname.
      expectedHostname:
        expected === undefined ? (siteOrigin ? new URL(siteOrigin).hostname : undefined) : expected || undefined,
    });
  },
});
