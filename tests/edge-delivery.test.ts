import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContactHandler } from '../site/contact/handler.ts';
import type { ChallengeVerifier } from '../site/contact/turnstile.ts';
import { deliverDue } from '../src/inbox/edge-delivery.ts';
import { createD1Inbox } from '../src/inbox/inbox-d1.ts';
import { deliveryIdOf } from '../src/inbox/message.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';
import { createWebhookSender } from '../src/inbox/webhook-sender.ts';
import { memoryD1 } from './helpers/d1.ts';

const ORIGIN = 'https://validators.example';
const LIMIT = 5;
const WINDOW_MS = 600_000;
const verifier: ChallengeVerifier = {
  verify: async () => ({ success: true, hostname: 'validators.example', errorCodes: [] }),
};

/** What the receiver does with one delivery: take it, refuse it, redirect, never be reached, or take it and answer too late. */
const OUTCOMES = ['ok', 'status500', 'redirect302', 'unreachable', 'lateOk'] as const;
type Outcome = (typeof OUTCOMES)[number];

const step = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('submit' as const), client: fc.nat(1), text: fc.nat(5) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('pass' as const) }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 120 }) }),
    weight: 1,
  },
);

// The edge's handler and delivery over a store and a receiver that fail at random points: the
// D1 inbox on in-memory SQLite, each of its calls failing when the run says so, and a webhook
// receiver behind a fake fetch that takes, refuses, redirects, is unreachable or answers late.
describe('the edge inbox under random store and receiver failures', () => {
  it('delivers every message answered 200 at least once, each with one id, and refuses no visitor for a failure of ours', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 40 }),
        fc.infiniteStream(fc.boolean()),
        fc.infiniteStream(fc.constantFrom(...OUTCOMES)),
        async (steps, storeFails, outcomes) => {
          let clock = 1_700_000_000_000;
          const now = () => new Date(clock);
          let faults = true;
          let failedInCall = false;
          // A store failing about one call in four, one in eight after the statement took effect.
          const failures = storeFails[Symbol.iterator]();
          const decide = (): boolean | 'after' => {
            const fail = faults && failures.next().value === true && failures.next().value === true;
            if (!fail) return false;
            failedInCall = true;
            return failures.next().value === true ? 'after' : true;
          };
          const d1 = memoryD1(decide);
          try {
            const inbox = createD1Inbox(d1.binding);
            const taken: Array<{ key: string; id: string }> = [];
            const outcome = outcomes[Symbol.iterator]();
            const fakeFetch = (async (_url: string, init: RequestInit) => {
              const key = new Headers(init.headers).get('idempotency-key')!;
              const { id } = JSON.parse(String(init.body)) as { id: string };
              const what: Outcome = faults ? outcome.next().value : 'ok';
              if (what === 'unreachable') throw new TypeError('fetch failed');
              if (what === 'ok' || what === 'lateOk') taken.push({ key, id });
              if (what === 'lateOk') throw new DOMException('The operation timed out.', 'TimeoutError');
              if (what === 'redirect302')
                return new Response(null, { status: 302, headers: { Location: 'https://elsewhere.example/' } });
              return new Response('{}', { status: what === 'ok' ? 200 : 500 });
            }) as typeof fetch;
            const sender = createWebhookSender({
              url: 'http://127.0.0.1:9/hook',
              type: 'contact-message',
              idPrefix: 'contact',
              fetch: fakeFetch,
            });
            const pass = (maxMessages: number) =>
              deliverDue({
                inbox,
                senders: [sender],
                retryBaseMs: 30_000,
                retryMaxMs: 3_600_000,
                claimMs: 60_000,
                maxMessages,
                budgetMs: 20_000,
                now,
              });
            const handle = createContactHandler({
              verifier,
              inbox,
              rateLimiter: createRateLimiter({ limit: LIMIT, windowMs: WINDOW_MS }),
              allowedOrigins: [ORIGIN],
              now,
            });
            const accepted: Array<{ client: number; at: number; fields: { email: string; message: string } }> = [];
            const errors = console.error;
            console.error = () => undefined;
            try {
              for (const each of steps) {
                if (each.kind === 'tick') clock += each.seconds * 1000;
                if (each.kind === 'pass') await pass(50);
                if (each.kind !== 'submit') continue;
                const fields = {
                  name: 'Ada',
                  email: `c${each.client}@example.org`,
                  subject: 'Hi',
                  message: `text ${each.text}`,
                  turnstileToken: 'ok',
                };
                failedInCall = false;
                const response = await handle(
                  new Request(`${ORIGIN}/api/contact`, {
                    method: 'POST',
                    headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
                    body: JSON.stringify(fields),
                  }),
                  `192.0.2.${each.client}`,
                );
                const recent = accepted.filter(
                  (sent) => sent.client === each.client && clock - sent.at < WINDOW_MS,
                ).length;
                if (response.status === 200) {
                  accepted.push({ client: each.client, at: clock, fields });
                  // The first attempt after the answer, as the function's waitUntil makes it.
                  await pass(3);
                } else if (response.status === 429) {
                  // Refused only with the visitor's own room used up by messages we accepted.
                  expect(recent).toBeGreaterThanOrEqual(LIMIT);
                } else {
                  // Anything else is a failure of the store, said as one.
                  expect(response.status).toBe(503);
                  expect(failedInCall).toBe(true);
                }
              }
              // The store and the receiver recover; sweeps run (each an hour apart) until nothing is due.
              faults = false;
              for (let sweep = 0; sweep < 20 && (await inbox.list({ undelivered: true })).length > 0; sweep++) {
                clock += 3_600_000;
                await pass(50);
              }
            } finally {
              console.error = errors;
            }
            const stored = await inbox.list();
            expect(stored.filter((message) => message.deliveredAt === null)).toEqual([]);
            const idsTaken = new Set(taken.map((delivery) => delivery.id));
            for (const sent of accepted) {
              const row = stored.find(
                (message) => message.email === sent.fields.email && message.message === sent.fields.message,
              );
              expect(row).toBeDefined();
              expect(idsTaken.has(deliveryIdOf(row!, 'contact'))).toBe(true);
            }
            // Each delivery's id is its Idempotency-Key, and names one stored message.
            expect(taken.every((delivery) => delivery.key === delivery.id)).toBe(true);
            const known = new Set(stored.map((message) => deliveryIdOf(message, 'contact')));
            expect([...idsTaken].every((id) => known.has(id))).toBe(true);
          } finally {
            d1.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
