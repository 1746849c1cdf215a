import { composeMail, type MailAddressing } from './mail-compose.ts';
import type { MessageSender, StoredMessage } from './message.ts';
import { WEBHOOK_TIMEOUT_MS } from './webhook-sender.ts';

export interface MailApiOptions extends MailAddressing {
  /** The API's endpoint that sends one mail, for example `https://api.resend.com/emails`. */
  url: string;
  /** Sent as a bearer token. */
  token: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Sends each stored message as a mail through an HTTP mail API, the way the edge can (no SMTP
 * there): one JSON POST with `from`, `to`, `reply_to`, `subject`, `text` and the mail's
 * `Message-ID` in `headers`, the shape Resend's API takes. As with the webhook, only a 2xx counts,
 * no redirect is followed, and every attempt carries the same `Idempotency-Key` and Message-ID.
 */
export function createMailApiSender(options: MailApiOptions): MessageSender {
  const doFetch = options.fetch ?? fetch;
  return {
    async send(message: StoredMessage) {
      const mail = composeMail(message, options);
      const response = await doFetch(options.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${options.token}`,
          // The Message-ID's local part: the message's id, as the webhook gets it.
          'Idempotency-Key': mail.messageId.slice(1, mail.messageId.lastIndexOf('@')),
        },
        body: JSON.stringify({
          from: mail.from,
          to: [mail.to],
          // The address alone: the handler checked it; a visitor's name is no part of a header here.
          reply_to: mail.replyTo.address,
          subject: mail.subject,
          text: mail.text,
          headers: { 'Message-ID': mail.messageId },
        }),
        signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return;
      if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
        throw new Error(
          `the mail API answered ${response.status} (a redirect to ${response.headers.get('location') ?? 'no Location'}, not followed)`,
        );
      }
      throw new Error(`the mail API answered ${response.status}`);
    },
  };
}
