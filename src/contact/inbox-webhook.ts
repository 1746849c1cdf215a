import type { ContactMessage, Inbox } from './handler.ts';

/**
 * An inbox that hands each message to a webhook (an automation service, a mail API relay, a
 * chat channel). The message counts as stored only when the webhook answers 2xx; otherwise the
 * handler answers with an error and the visitor can send again, so nothing is lost silently.
 */
export function createWebhookInbox(options: { url: string; token?: string; timeoutMs?: number; fetch?: typeof fetch }): Inbox {
  const doFetch = options.fetch ?? fetch;
  let sequence = 0;
  return {
    async add(message: ContactMessage & { receivedAt: string; clientAddress: string }) {
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({ type: 'contact-message', ...message }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
      return ++sequence;
    },
  };
}
