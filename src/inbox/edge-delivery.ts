// Delivery at the edge, where nothing runs between requests: each pass is short and bounded, run
// after a message is stored (in the request's `waitUntil`) and by a scheduled sweep. Passes may
// overlap (two requests, a request and the sweep): each message is claimed before its attempt.
import { backoff } from './delivery.ts';
import type { ClaimingInbox } from './inbox-d1.ts';
import type { MessageSender } from './message.ts';

export interface DeliveryPassOptions {
  inbox: ClaimingInbox;
  /** Every target a message goes to; it counts as delivered once all took it. */
  senders: readonly MessageSender[];
  /** The wait after the first failure; it doubles with each further one. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim holds: longer than one attempt may take, so only a dead deliverer's claim runs out. */
  claimMs: number;
  /** Most messages one pass attempts. */
  maxMessages: number;
  /** No attempt starts after this long. */
  budgetMs: number;
  log?: (line: string) => void;
  now?: () => Date;
}

export const EDGE_DELIVERY = { retryBaseMs: 30_000, retryMaxMs: 3_600_000, claimMs: 60_000 } as const;

export interface DeliveryPassResult {
  delivered: number;
  failed: number;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Attempts the due messages, oldest first, until one fails (the target is then likely down for
 * the others too; they wait for their own retry times), the count or the time is used up. A
 * failure of the inbox ends the pass; the next one takes up where it stopped. Never throws.
 */
export async function deliverDue(options: DeliveryPassOptions): Promise<DeliveryPassResult> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const started = now().getTime();
  const result: DeliveryPassResult = { delivered: 0, failed: 0 };
  try {
    for (const message of await options.inbox.due(now(), options.maxMessages)) {
      if (now().getTime() - started >= options.budgetMs) break;
      const at = now();
      if (!(await options.inbox.claim(message.id, new Date(at.getTime() + options.claimMs), at))) continue;
      try {
        for (const sender of options.senders) await sender.send(message);
      } catch (error) {
        const wait = backoff(message.attempts, options.retryBaseMs, options.retryMaxMs);
        log(`inbox: message ${message.id} not delivered (${reason(error)}); retry in ${Math.round(wait / 1000)} s`);
        await options.inbox.markFailed(message.id, reason(error), new Date(now().getTime() + wait));
        result.failed += 1;
        break;
      }
      await options.inbox.markDelivered(message.id, now());
      log(`inbox: message ${message.id} delivered`);
      result.delivered += 1;
    }
  } catch (error) {
    log(`inbox: delivery paused until the next pass (${reason(error)})`);
  }
  return result;
}
