import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// better-sqlite3 is synchronous: a locked or slow database file would block the event loop, and
// with it every static page. So the serving process keeps its connection on a worker thread and
// talks to it by messages.
//
// The worker is plain JavaScript kept here as text, run with `eval`: it then works the same from the
// TypeScript sources (tests) and from the CLI's bundled copy, which has no separate worker file.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
let db;
const statements = new Map();
function prepare(sql) {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}
function perform(request) {
  switch (request.op) {
    case 'open': db = new Database(request.sql, request.params[0]); return null;
    case 'exec': db.exec(request.sql); return null;
    case 'pragma': return db.pragma(request.sql);
    case 'run': {
      const result = prepare(request.sql).run(...request.params);
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    }
    case 'all': return prepare(request.sql).all(...request.params);
    case 'close': if (db && db.open) db.close(); return null;
  }
  throw new Error('unknown operation ' + request.op);
}
parentPort.on('message', (request) => {
  try {
    parentPort.postMessage({ id: request.id, ok: true, value: perform(request) });
  } catch (error) {
    parentPort.postMessage({ id: request.id, ok: false, message: String((error && error.message) || error), code: error && error.code });
  }
});
`;

type Operation = 'open' | 'exec' | 'pragma' | 'run' | 'all' | 'close';
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: string };

/** An error SQLite reported on the worker, with its code (SQLITE_BUSY, SQLITE_FULL, …). */
export class SqliteThreadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SqliteThreadError';
  }
}

export interface SqliteThread {
  exec(sql: string): Promise<void>;
  pragma(sql: string): Promise<unknown>;
  run(sql: string, ...params: unknown[]): Promise<{ changes: number; lastInsertRowid: number }>;
  all<Row>(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** Closes the database, or after `timeoutMs` ends the thread (a write stuck on a dead disk). */
  close(timeoutMs?: number): Promise<void>;
}

/** Opens `file` with better-sqlite3 on a new worker thread. */
export async function openSqliteThread(
  file: string,
  options: { readonly?: boolean; fileMustExist?: boolean } = {},
): Promise<SqliteThread> {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let ended: Error | undefined;

  const failAll = (error: Error) => {
    ended = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiter?.resolve(reply.value);
    else waiter?.reject(new SqliteThreadError(reply.message, reply.code));
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new SqliteThreadError(`the database thread ended (exit code ${code})`)));

  const call = (op: Operation, sql = '', params: unknown[] = []) =>
    new Promise<unknown>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, sql, params });
    });

  try {
    await call('open', file, [options]);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    exec: async (sql) => void (await call('exec', sql)),
    pragma: (sql) => call('pragma', sql),
    run: (sql, ...params) => call('run', sql, params) as Promise<{ changes: number; lastInsertRowid: number }>,
    all: <Row>(sql: string, ...params: unknown[]) => call('all', sql, params) as Promise<Row[]>,
    async close(timeoutMs = 2000) {
      if (ended) return;
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
      await Promise.race([call('close').catch(() => undefined), timer]);
      // A thread inside a native SQLite call (waiting on a lock) ends only when that call returns:
      // shutdown does not wait for it past the time-out.
      await Promise.race([worker.terminate(), timer]);
    },
  };
}
