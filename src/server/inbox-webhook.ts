import type { Inbox, NewFormMessage } from './message.ts';

/**
 * An inbox that hands each message to a webhook (an automation service, a mail API relay, a
 * chat channel). The message counts as stored only when the webhook answers 2xx; otherwise the
 * handler answers with an error and the visitor can send again, so nothing is lost silently.
 */
export function createWebhookInbox(options: {
  url: string;
  token?: string;
  /** The `type` field of each JSON body, naming the form, so one webhook can take several. */
  type: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): Inbox {
  const doFetch = options.fetch ?? fetch;
  let sequence = 0;
  return {
    async add(message: NewFormMessage) {
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({ type: options.type, ...message }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
      return ++sequence;
    },
  };
}
