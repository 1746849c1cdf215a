import type { MessageSender, StoredMessage } from './message.ts';

/** What the delivery loop needs of the inbox; each call may fail (database locked, disk full). */
export interface DeliveryInbox {
  due(now: Date, limit?: number): Promise<StoredMessage[]> | StoredMessage[];
  markDelivered(id: number, at: Date): Promise<boolean> | boolean;
  markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void> | void;
}

export interface DeliveryOptions {
  inbox: DeliveryInbox;
  sender: MessageSender;
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

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One pass over the due messages, oldest first, until one fails to send. `sentNotRecorded` holds
 * what the mail server accepted but the inbox has not yet recorded; `stopped` ends the pass early.
 */
function createDeliveryPass(options: DeliveryOptions, sentNotRecorded: Map<number, Date>, stopped: () => boolean) {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);

  async function recordSent(): Promise<void> {
    for (const [id, at] of sentNotRecorded) {
      if (stopped()) return;
      await options.inbox.markDelivered(id, at);
      sentNotRecorded.delete(id);
      log(`inbox: message ${id} delivered`);
    }
  }

  async function sendOne(message: StoredMessage): Promise<boolean> {
    try {
      await options.sender.send(message);
    } catch (error) {
      const wait = backoff(message.attempts, options.retryBaseMs, options.retryMaxMs);
      log(`inbox: message ${message.id} not delivered (${reason(error)}); retry in ${Math.round(wait / 1000)} s`);
      await options.inbox.markFailed(message.id, reason(error), new Date(now().getTime() + wait));
      return false;
    }
    sentNotRecorded.set(message.id, now());
    await recordSent();
    return true;
  }

  return async function drainOnce(): Promise<void> {
    await recordSent();
    for (const message of await options.inbox.due(now())) {
      if (stopped()) return;
      if (sentNotRecorded.has(message.id)) continue;
      // After a failure the mail server is likely down for the others too: wait for their own retry times.
      if (!(await sendOne(message))) return;
    }
  };
}

/** 'stopped' when `running` settles within `timeoutMs`, 'abandoned' otherwise. */
async function settleWithin(running: Promise<void>, timeoutMs: number): Promise<'stopped' | 'abandoned'> {
  let timeout: NodeJS.Timeout | undefined;
  const expired = new Promise<'abandoned'>((resolve) => {
    if (Number.isFinite(timeoutMs)) timeout = setTimeout(() => resolve('abandoned'), Math.max(0, timeoutMs));
  });
  const result = await Promise.race([running.then(() => 'stopped' as const), expired]);
  clearTimeout(timeout);
  return result;
}

/**
 * Sends stored messages by mail, one at a time, oldest first. A failed send leaves the message
 * undelivered with a later retry time; a sent one is marked delivered once. Nothing the inbox or
 * the mail server does stops the loop: a failing step is logged and tried again at the next poll.
 *
 * A message the mail server accepted but whose record failed (database locked) is remembered in
 * memory and not sent again by this process; only a crash between the two sends a second copy.
 */
export function startDeliveryLoop(options: DeliveryOptions) {
  const log = options.log ?? (() => undefined);
  const sentNotRecorded = new Map<number, Date>();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const drainOnce = createDeliveryPass(options, sentNotRecorded, () => stopped);

  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        await drainOnce();
      } catch (error) {
        log(`inbox: delivery paused until the next poll (${reason(error)})`);
        return;
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
    /**
     * Stops the loop. A send still under way after `timeoutMs` is abandoned: the message stays
     * undelivered in the inbox and goes out after the next start, with the same Message-ID.
     */
    async stop(timeoutMs = Infinity): Promise<'stopped' | 'abandoned'> {
      stopped = true;
      clearInterval(timer);
      if (!running) return 'stopped';
      return settleWithin(running, timeoutMs);
    },
  };
}
