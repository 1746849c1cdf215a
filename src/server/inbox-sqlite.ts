import { existsSync, mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogueError } from '../errors.ts';
import type { Inbox, NewFormMessage, StoredMessage } from './message.ts';
import { openSqliteThread, type SqliteThread } from './sqlite-thread.ts';
import { sqliteBindingMissing } from './data-dir.ts';

export const INBOX_FILE_NAME = 'inbox.sqlite';

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

// One set of statements for both ways of opening the inbox.
const SQL = {
  insert: `INSERT INTO messages (received_at, client_address, name, email, subject, message, next_attempt_at)
     VALUES (@receivedAt, @clientAddress, @name, @email, @subject, @message, @receivedAt)`,
  due: `SELECT * FROM messages WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
  delivered: `UPDATE messages SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL`,
  failed: `UPDATE messages SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?`,
  all: `SELECT * FROM messages ORDER BY id`,
  undelivered: `SELECT * FROM messages WHERE delivered_at IS NULL ORDER BY id`,
} as const;

// WAL and synchronous=FULL: a message committed before `add` returns survives a crash or power cut.
const PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL', 'busy_timeout = 5000'];

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

type NewMessage = NewFormMessage;

/** The inbox as the CLI and tests read it: synchronous, in the calling thread. */
export interface SqliteInbox extends Inbox {
  file: string;
  add(message: NewMessage): number;
  /** Undelivered messages whose next attempt is due, oldest first. */
  due(now: Date, limit?: number): StoredMessage[];
  /** Marks a message delivered; false if it already was (so it is marked exactly once). */
  markDelivered(id: number, at: Date): boolean;
  markFailed(id: number, error: string, nextAttemptAt: Date): void;
  list(options?: { undelivered?: boolean }): StoredMessage[];
  close(): void;
}

/** The same inbox for the server: every call runs on a worker thread, so none blocks a page. */
export interface AsyncInbox extends Inbox {
  file: string;
  add(message: NewMessage): Promise<number>;
  due(now: Date, limit?: number): Promise<StoredMessage[]>;
  markDelivered(id: number, at: Date): Promise<boolean>;
  markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>;
  list(options?: { undelivered?: boolean }): Promise<StoredMessage[]>;
  close(timeoutMs?: number): Promise<void>;
}

/** The inbox file's identity; a write into a file that is no longer at its path would be lost. */
export class InboxFileReplacedError extends Error {
  constructor(file: string) {
    super(`${file} was deleted or replaced while the server had it open; new messages are refused until a restart`);
    this.name = 'InboxFileReplacedError';
  }
}

export function inboxFile(dataDir: string): string {
  return path.join(dataDir, INBOX_FILE_NAME);
}

/** Opens (creating when needed) the inbox in `dataDir` in this thread. */
export function openSqliteInbox(dataDir: string): SqliteInbox {
  mkdirSync(dataDir, { recursive: true });
  const file = inboxFile(dataDir);
  const db = new Database(file);
  for (const pragma of PRAGMAS) db.pragma(pragma);
  db.exec(SCHEMA);
  const statement = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<
    keyof typeof SQL,
    Database.Statement
  >;
  return {
    file,
    add: (message) => Number(statement.insert.run(message).lastInsertRowid),
    due: (now, limit = 20) => (statement.due.all(now.toISOString(), limit) as Row[]).map(toMessage),
    markDelivered: (id, at) => statement.delivered.run(at.toISOString(), id).changes === 1,
    markFailed: (id, error, nextAttemptAt) => void statement.failed.run(error.slice(0, 1000), nextAttemptAt.toISOString(), id),
    list: (options = {}) => ((options.undelivered ? statement.undelivered : statement.all).all() as Row[]).map(toMessage),
    close: () => db.close(),
  };
}

/**
 * Reads the inbox one message at a time, without creating anything (nothing when there is none
 * yet): an inbox a site collected over years may not fit in memory at once.
 */
export function* iterateInbox(dataDir: string, options: { undelivered?: boolean } = {}): Generator<StoredMessage> {
  const file = inboxFile(dataDir);
  if (!existsSync(file)) return;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    for (const row of db.prepare(options.undelivered ? SQL.undelivered : SQL.all).iterate() as IterableIterator<Row>) yield toMessage(row);
  } catch (error) {
    if (sqliteBindingMissing(error)) throw catalogueError('SqliteMissing', ['noBinding'], {}, { cause: error });
    // A damaged, foreign or unreadable file is the operator's to look at, not a bug.
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw catalogueError('InboxUnreadable', [code, (error as Error).message], { file }, { cause: error });
  } finally {
    db?.close();
  }
}

/** The whole inbox as a list: for small inboxes and tests. */
export function readInbox(dataDir: string, options: { undelivered?: boolean } = {}): StoredMessage[] {
  return [...iterateInbox(dataDir, options)];
}

async function identityOf(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Opens the inbox on a worker thread. After each accepted message it checks that the file at the
 * path is still the one it opened: a message written into a deleted or replaced file would be
 * answered 200 and then lost, so `add` throws instead and the visitor is told to try again.
 * Delivery goes on from the open file, so messages stored before the swap are still mailed.
 */
export async function openInboxThread(dataDir: string): Promise<AsyncInbox> {
  mkdirSync(dataDir, { recursive: true });
  const file = inboxFile(dataDir);
  const thread: SqliteThread = await openSqliteThread(file);
  try {
    for (const pragma of PRAGMAS) await thread.pragma(pragma);
    await thread.exec(SCHEMA);
  } catch (error) {
    await thread.close();
    throw error;
  }
  const opened = await identityOf(file);
  let replaced = false;
  const checkFile = async () => {
    if (!replaced && (await identityOf(file)) !== opened) replaced = true;
    if (replaced) throw new InboxFileReplacedError(file);
  };
  return {
    file,
    async add(message) {
      await checkFile();
      const { lastInsertRowid } = await thread.run(SQL.insert, message);
      await checkFile();
      return lastInsertRowid;
    },
    due: async (now, limit = 20) => (await thread.all<Row>(SQL.due, now.toISOString(), limit)).map(toMessage),
    markDelivered: async (id, at) => (await thread.run(SQL.delivered, at.toISOString(), id)).changes === 1,
    markFailed: async (id, error, nextAttemptAt) => void (await thread.run(SQL.failed, error.slice(0, 1000), nextAttemptAt.toISOString(), id)),
    list: async (options = {}) => (await thread.all<Row>(options.undelivered ? SQL.undelivered : SQL.all)).map(toMessage),
    close: (timeoutMs) => thread.close(timeoutMs),
  };
}
