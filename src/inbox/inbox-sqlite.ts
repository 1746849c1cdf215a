import { existsSync, mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogueError } from '../errors/errors.ts';
import type { Inbox, NewFormMessage, StoredMessage } from './message.ts';
import { openSqliteThread, type SqliteThread } from './sqlite-thread.ts';
import { sqliteBindingMissing } from './data-dir.ts';
import { earlierParams, INBOX_SQL, insertParams, storedError, toStoredMessage, type InboxRow } from './inbox-sql.ts';
import { migrationScript } from './inbox-migrations.ts';

export const INBOX_FILE_NAME = 'inbox.sqlite';

// WAL and synchronous=FULL: a message committed before `add` returns survives a crash or power cut.
const PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL', 'busy_timeout = 5000'];

const SQL = INBOX_SQL;
type Row = InboxRow;
const toMessage = toStoredMessage;

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
  const script = migrationScript(db.pragma('user_version', { simple: true }) as number);
  if (script) db.exec(script);
  const statement = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<
    keyof typeof SQL,
    Database.Statement
  >;
  return {
    file,
    add(message) {
      const row = statement.insert.get(...insertParams(message)) as { id: number } | undefined;
      return row?.id ?? (statement.earlier.get(...earlierParams(message)) as { id: number }).id;
    },
    due: (now, limit = 20) => (statement.due.all(now.toISOString(), limit) as Row[]).map(toMessage),
    markDelivered: (id, at) => statement.delivered.run(at.toISOString(), id).changes === 1,
    markFailed: (id, error, nextAttemptAt) =>
      void statement.failed.run(storedError(error), nextAttemptAt.toISOString(), id),
    list: (options = {}) =>
      ((options.undelivered ? statement.undelivered : statement.all).all() as Row[]).map(toMessage),
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
    for (const row of db.prepare(options.undelivered ? SQL.undelivered : SQL.all).iterate() as IterableIterator<Row>)
      yield toMessage(row);
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
    const [version] = (await thread.pragma('user_version')) as Array<{ user_version: number }>;
    const script = migrationScript(version?.user_version ?? 0);
    if (script) await thread.exec(script);
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
      const [row] = await thread.all<{ id: number }>(SQL.insert, ...insertParams(message));
      const id = row?.id ?? (await thread.all<{ id: number }>(SQL.earlier, ...earlierParams(message)))[0]!.id;
      await checkFile();
      return id;
    },
    due: async (now, limit = 20) => (await thread.all<Row>(SQL.due, now.toISOString(), limit)).map(toMessage),
    markDelivered: async (id, at) => (await thread.run(SQL.delivered, at.toISOString(), id)).changes === 1,
    markFailed: async (id, error, nextAttemptAt) =>
      void (await thread.run(SQL.failed, storedError(error), nextAttemptAt.toISOString(), id)),
    list: async (options = {}) =>
      (await thread.all<Row>(options.undelivered ? SQL.undelivered : SQL.all)).map(toMessage),
    close: (timeoutMs) => thread.close(timeoutMs),
  };
}
