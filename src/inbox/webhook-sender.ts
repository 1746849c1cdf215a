import { deliveryIdOf, type MessageSender, type StoredMessage } from './message.ts';

export interface WebhookSenderOptions {
  url: string;
  /** Sent as a bearer token. */
  token?: string;
  /** The `type` field of each JSON body, naming the form, so one webhook can take several. */
  type: string;
  /** The start of each message's id (the route's `messageIdPrefix`). */
  idPrefix: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** How long a webhook may take to answer before the attempt counts as failed (and is retried). */
export const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * Posts each stored message as JSON to a webhook (an automation service, a mail API relay, a chat
 * channel). Only a 2xx answer counts as delivered. A redirect is never followed: `fetch` would
 * follow a 301, 302 or 303 as a GET without the body and report the GET's 200, so a 3xx is a
 * failed attempt, retried later, its Location in the error. Every attempt at one message carries
 * the same `id` and `Idempotency-Key`, so the receiver can drop a second copy.
 */
export function createWebhookSender(options: WebhookSenderOptions): MessageSender {
  const doFetch = options.fetch ?? fetch;
  return {
    async send(message: StoredMessage) {
      const id = deliveryIdOf(message, options.idPrefix);
      const { name, email, subject, receivedAt, clientAddress } = message;
      const response = await doFetch(options.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/json',
          'Idempotency-Key': id,
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({
          type: options.type,
          id,
          name,
          email,
          subject,
          message: message.message,
          receivedAt,
          clientAddress,
        }),
        signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return;
      const location = response.headers.get('location');
      // A browser-style fetch hides a manual redirect as status 0 ("opaqueredirect").
      if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
        throw new Error(
          `the webhook answered ${response.status} (a redirect to ${location ?? 'no Location'}, not followed)`,
        );
      }
      throw new Error(`the webhook answered ${response.status}`);
    },
  };
}
