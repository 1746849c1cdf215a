// The form inbox in Cloudflare D1, for a route run at the edge: the tables of migrations/ and the
// statements of inbox-sql.ts, as `ssg serve`'s SQLite inbox, so both store and deduplicate alike.
import type { Inbox, NewFormMessage, StoredMessage } from './message.ts';
import { earlierParams, INBOX_SQL, insertParams, storedError, toStoredMessage, type InboxRow } from './inbox-sql.ts';

/** The part of Cloudflare's D1 binding used here (a `D1Database`), so no Cloudflare types are needed. */
export interface D1Binding {
  prepare(sql: string): D1Statement;
}

export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
  run(): Promise<{ meta: { changes?: number } }>;
}

/** What the edge's delivery needs of the inbox; each call may fail. */
export interface ClaimingInbox {
  due(now: Date, limit: number): Promise<StoredMessage[]>;
  /** Takes a due message for one attempt until `until`; false when it is no longer due (another took it). */
  claim(id: number, until: Date, now: Date): Promise<boolean>;
  markDelivered(id: number, at: Date): Promise<boolean>;
  markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>;
}

export interface D1Inbox extends Inbox, ClaimingInbox {
  add(message: NewFormMessage): Promise<number>;
  list(options?: { undelivered?: boolean }): Promise<StoredMessage[]>;
}

export function createD1Inbox(db: D1Binding): D1Inbox {
  const changed = async (statement: D1Statement) => ((await statement.run()).meta.changes ?? 0) === 1;
  return {
    async add(message) {
      const row = await db
        .prepare(INBOX_SQL.insert)
        .bind(...insertParams(message))
        .first<{ id: number }>();
      if (row) return row.id;
      const earlier = await db
        .prepare(INBOX_SQL.earlier)
        .bind(...earlierParams(message))
        .first<{ id: number }>();
      if (!earlier) throw new Error('the message was neither stored nor found stored');
      return earlier.id;
    },
    async due(now, limit) {
      const { results } = await db.prepare(INBOX_SQL.due).bind(now.toISOString(), limit).all<InboxRow>();
      return results.map(toStoredMessage);
    },
    claim: (id, until, now) => changed(db.prepare(INBOX_SQL.claim).bind(until.toISOString(), id, now.toISOString())),
    markDelivered: (id, at) => changed(db.prepare(INBOX_SQL.delivered).bind(at.toISOString(), id)),
    async markFailed(id, error, nextAttemptAt) {
      await db.prepare(INBOX_SQL.failed).bind(storedError(error), nextAttemptAt.toISOString(), id).run();
    },
    async list(options = {}) {
      const { results } = await db.prepare(options.undelivered ? INBOX_SQL.undelivered : INBOX_SQL.all).all<InboxRow>();
      return results.map(toStoredMessage);
    },
  };
}
