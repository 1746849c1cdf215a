// The form inbox's statements, one set for both stores: SQLite on Node (better-sqlite3) and
// Cloudflare D1 at the edge. Both run the tables of migrations/ and bind `?` in order, the one
// parameter style both accept. Nothing here may import Node: the edge bundles it.
import type { NewFormMessage, StoredMessage } from './message.ts';

/**
 * A form sent again with the same fields within this time (a double click, or a resend after an
 * answer that was lost) is stored once: the second `add` returns the first one's id.
 */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

export const INBOX_SQL = {
  /** Inserts unless a copy arrived within the window; returns the new row's id, or no row. */
  insert: `INSERT INTO messages (received_at, client_address, name, email, subject, message, next_attempt_at)
     SELECT ?, ?, ?, ?, ?, ?, ?
     WHERE NOT EXISTS (SELECT 1 FROM messages WHERE email = ? AND received_at > ? AND name = ? AND subject = ? AND message = ?)
     RETURNING id`,
  /** The copy stored earlier, when `insert` stored nothing. */
  earlier: `SELECT id FROM messages WHERE email = ? AND received_at > ? AND name = ? AND subject = ? AND message = ? ORDER BY id LIMIT 1`,
  due: `SELECT * FROM messages WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
  /**
   * Takes a due message for one attempt by pushing its next attempt past the attempt's length, so
   * a second deliverer (the sweep beside a first attempt) passes it by; a deliverer that dies
   * leaves it due again once that time has passed.
   */
  claim: `UPDATE messages SET next_attempt_at = ? WHERE id = ? AND delivered_at IS NULL AND next_attempt_at <= ?`,
  delivered: `UPDATE messages SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL`,
  failed: `UPDATE messages SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?`,
  all: `SELECT * FROM messages ORDER BY id`,
  undelivered: `SELECT * FROM messages WHERE delivered_at IS NULL ORDER BY id`,
} as const;

/** The parameters of `insert`, in order. */
export function insertParams(message: NewFormMessage): unknown[] {
  const since = new Date(Date.parse(message.receivedAt) - DUPLICATE_WINDOW_MS).toISOString();
  const { receivedAt, clientAddress, name, email, subject } = message;
  return [
    receivedAt,
    clientAddress,
    name,
    email,
    subject,
    message.message,
    receivedAt,
    ...earlierParams(message, since),
  ];
}

/** The parameters of `earlier` (and of `insert`'s look for a copy), in order. */
export function earlierParams(
  message: NewFormMessage,
  since = new Date(Date.parse(message.receivedAt) - DUPLICATE_WINDOW_MS).toISOString(),
): unknown[] {
  return [message.email, since, message.name, message.subject, message.message];
}

/** An error text as stored: bounded, whatever the receiver answered. */
export const storedError = (error: string) => error.slice(0, 1000);

export interface InboxRow {
  id: number;
  received_at: string;
  client_address: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  delivered_at: string | null;
  attempts: number;
  last_error: string | null;
}

export const toStoredMessage = (row: InboxRow): StoredMessage => ({
  id: row.id,
  receivedAt: row.received_at,
  clientAddress: row.client_address,
  name: row.name,
  email: row.email,
  subject: row.subject,
  message: row.message,
  deliveredAt: row.delivered_at,
  attempts: row.attempts,
  lastError: row.last_error,
});
