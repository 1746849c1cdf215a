import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startDeliveryLoop, type DeliveryInbox } from '../src/inbox/delivery.ts';
import type { StoredMessage } from '../site/contact/handler.ts';
import type { MessageSender } from '../src/inbox/message.ts';

const stored = (id: number): StoredMessage => ({
  id,
  name: `Visitor ${id}`,
  email: `v${id}@example.org`,
  subject: `Question ${id}`,
  message: 'Hello',
  receivedAt: new Date(1_700_000_000_000 + id).toISOString(),
  clientAddress: '127.0.0.1',
  deliveredAt: null,
  attempts: 0,
  lastError: null,
});

/** An in-memory inbox whose calls fail while `faults` says so, like a locked or full database. */
function faultyInbox(ids: number[], faults: { due: boolean; markDelivered: boolean; markFailed: boolean }) {
  const messages = new Map(ids.map((id) => [id, stored(id)]));
  const nextAttempt = new Map<number, number>();
  const inbox: DeliveryInbox = {
    due(now) {
      if (faults.due) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return [...messages.values()].filter((m) => !m.deliveredAt && (nextAttempt.get(m.id) ?? 0) <= now.getTime());
    },
    async markDelivered(id, at) {
      if (faults.markDelivered) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const message = messages.get(id)!;
      if (message.deliveredAt) return false;
      message.deliveredAt = at.toISOString();
      return true;
    },
    async markFailed(id, error, next) {
      if (faults.markFailed) throw new Error('database is locked');
      messages.get(id)!.attempts++;
      messages.get(id)!.lastError = error;
      nextAttempt.set(id, next.getTime());
    },
  };
  return { inbox, messages };
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the delivery loop', () => {
  it('keeps running through database errors in due, markDelivered and markFailed, and delivers once they pass', async () => {
    const faults = { due: true, markDelivered: true, markFailed: true };
    const { inbox, messages } = faultyInbox([1, 2, 3], faults);
    const sent: number[] = [];
    let failSends = true;
    const sender: MessageSender = {
      async send(message) {
        if (failSends) throw new Error('connection refused');
        sent.push(message.id);
      },
    };
    const lines: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const loop = startDeliveryLoop({
      inbox,
      sender,
      retryBaseMs: 1,
      retryMaxMs: 2,
      pollMs: 5,
      log: (line) => lines.push(line),
    });
    try {
      await waitUntil(() => lines.some((line) => line.includes('database is locked')), 'a logged due() failure');
      faults.due = false;
      await waitUntil(
        () => lines.filter((line) => line.includes('not delivered')).length >= 2,
        'failed sends with failing markFailed',
      );
      faults.markFailed = false;
      failSends = false;
      await waitUntil(() => sent.length >= 1, 'the first accepted send');
      // Accepted but not recorded: not sent again while recording keeps failing (several polls).
      const pollsBefore = lines.length;
      await waitUntil(() => lines.length >= pollsBefore + 5, 'more failed polls');
      expect(sent).toEqual([1]);
      expect(lines.at(-1)).toMatch(/database or disk is full/);
      faults.markDelivered = false;
      await waitUntil(() => [...messages.values()].every((m) => m.deliveredAt), 'all recorded');
      expect(sent).toEqual([1, 2, 3]);
      expect(unhandled).toEqual([]);
    } finally {
      await loop.stop();
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('sends each message exactly once under random faults of the inbox and the mail server (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ due: fc.boolean(), markDelivered: fc.boolean(), markFailed: fc.boolean(), send: fc.boolean() }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 5 }),
        async (steps, count) => {
          const faults = { due: false, markDelivered: false, markFailed: false };
          const ids = Array.from({ length: count }, (_, i) => i + 1);
          const { inbox, messages } = faultyInbox(ids, faults);
          const accepted: number[] = [];
          let sendFails = false;
          const sender: MessageSender = {
            async send(message) {
              if (sendFails) throw new Error('421 try later');
              accepted.push(message.id);
            },
          };
          const loop = startDeliveryLoop({ inbox, sender, retryBaseMs: 0, retryMaxMs: 0, pollMs: 1 });
          try {
            for (const step of steps) {
              Object.assign(faults, { due: step.due, markDelivered: step.markDelivered, markFailed: step.markFailed });
              sendFails = step.send;
              await new Promise((resolve) => setTimeout(resolve, 3));
            }
            Object.assign(faults, { due: false, markDelivered: false, markFailed: false });
            sendFails = false;
            await waitUntil(() => [...messages.values()].every((m) => m.deliveredAt), 'everything delivered');
          } finally {
            await loop.stop();
          }
          // One process, no crash: never a second copy.
          expect([...accepted].sort((a, b) => a - b)).toEqual(ids);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('abandons a send that hangs when stopped with a time-out, leaving the message undelivered', async () => {
    const { inbox, messages } = faultyInbox([1], { due: false, markDelivered: false, markFailed: false });
    let started = false;
    const sender: MessageSender = { send: () => ((started = true), new Promise<void>(() => undefined)) };
    const loop = startDeliveryLoop({ inbox, sender, retryBaseMs: 1, retryMaxMs: 1, pollMs: 1000 });
    await waitUntil(() => started, 'the send to start');
    const begun = Date.now();
    expect(await loop.stop(200)).toBe('abandoned');
    expect(Date.now() - begun).toBeLessThan(5000);
    expect(messages.get(1)!.deliveredAt).toBeNull();
  });
});
