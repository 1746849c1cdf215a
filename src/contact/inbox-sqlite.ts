import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ContactMessage, Inbox, StoredMessage } from './handler.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at TEXT NOT NULL,
  client_address TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  delivered_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT
);
CREATE INDEX IF NOT EXISTS messages_undelivered ON messages (next_attempt_at) WHERE delivered_at IS NULL;
`;

interface Row {
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

const toMessage = (row: Row): StoredMessage => ({
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

export interface SqliteInbox extends Inbox {
  file: string;
  /** Undelivered messages whose next attempt is due, oldest first. */
  due(now: Date, limit?: number): StoredMessage[];
  /** Marks a message delivered; false if it already was (so it is marked exactly once). */
  markDelivered(id: number, at: Date): boolean;
  markFailed(id: number, error: string, nextAttemptAt: Date): void;
  list(options?: { undelivered?: boolean }): StoredMessage[];
  close(): void;
}

/**
 * The inbox in a SQLite file. Each message is committed before `add` returns, with WAL and
 * synchronous=FULL: once the handler has answered, a crash or power cut does not lose it.
 */
export function openSqliteInbox(dataDir: string): SqliteInbox {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'inbox.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const insert = db.prepare(
    `INSERT INTO messages (received_at, client_address, name, email, subject, message, next_attempt_at)
     VALUES (@receivedAt, @clientAddress, @name, @email, @subject, @message, @receivedAt)`,
  );
  const due = db.prepare(
    `SELECT * FROM messages WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
  );
  const delivered = db.prepare(`UPDATE messages SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL`);
  const failed = db.prepare(`UPDATE messages SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?`);
  const all = db.prepare(`SELECT * FROM messages ORDER BY id`);
  const undelivered = db.prepare(`SELECT * FROM messages WHERE delivered_at IS NULL ORDER BY id`);

  return {
    file,
    add(message: ContactMessage & { receivedAt: string; clientAddress: string }) {
      return Number(insert.run(message).lastInsertRowid);
    },
    due(now, limit = 20) {
      return (due.all(now.toISOString(), limit) as Row[]).map(toMessage);
    },
    markDelivered(id, at) {
      return delivered.run(at.toISOString(), id).changes === 1;
    },
    markFailed(id, error, nextAttemptAt) {
      failed.run(error.slice(0, 1000), nextAttemptAt.toISOString(), id);
    },
    list(options = {}) {
      return ((options.undelivered ? undelivered : all).all() as Row[]).map(toMessage);
    },
    close() {
      db.close();
    },
  };
}
