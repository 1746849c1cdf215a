import type { MailSender } from './mail.ts';
import type { SqliteInbox } from './inbox-sqlite.ts';

export interface DeliveryOptions {
  inbox: SqliteInbox;
  sender: MailSender;
  /** The wait after the first failure; it doubles with each further one. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often to look for messages whose retry is due. */
  pollMs: number;
  log?: (line: string) => void;
  now?: () => Date;
}

/** The wait before attempt `attempts + 1`: base · 2^attempts, capped. */
export function backoff(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
}

/**
 * Sends stored messages by mail, one at a time, oldest first. A failed send leaves the message
 * undelivered with a later retry time; a sent one is marked delivered once.
 */
export function startDeliveryLoop(options: DeliveryOptions) {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      for (const message of options.inbox.due(now())) {
        if (stopped) return;
        try {
          await options.sender.send(message);
          options.inbox.markDelivered(message.id, now());
          options.log?.(`contact: message ${message.id} delivered`);
        } catch (error) {
          const wait = backoff(message.attempts, options.retryBaseMs, options.retryMaxMs);
          options.inbox.markFailed(message.id, (error as Error).message, new Date(now().getTime() + wait));
          options.log?.(`contact: message ${message.id} not delivered (${(error as Error).message}); retry in ${Math.round(wait / 1000)} s`);
          // The mail server is likely down for the others too: wait for their own retry times.
          break;
        }
      }
    } while (again && !stopped);
  }

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => (running = undefined));
  };
  const timer = setInterval(kick, options.pollMs);
  timer.unref();
  kick();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
