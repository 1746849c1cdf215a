import Database from 'better-sqlite3';
import type { D1Binding, D1Statement } from '../../src/inbox/inbox-d1.ts';
import { inboxMigrations } from '../../src/inbox/inbox-migrations.ts';

/**
 * Cloudflare D1's binding, in process: an in-memory SQLite database with the inbox's migrations
 * applied (as `wrangler d1 migrations apply` does), answering in D1's shapes. `fail` decides, per
 * call, whether the store is down (it then throws as D1 does when it cannot be reached), or
 * 'after': the statement takes effect but its answer is lost (the caller sees the same error).
 */
export function memoryD1(fail: (sql: string) => boolean | 'after' = () => false) {
  const db = new Database(':memory:');
  for (const migration of inboxMigrations()) db.exec(migration.sql);
  const statement = (sql: string, values: unknown[]): D1Statement => {
    const lost = () => new Error('D1_ERROR: Network connection lost.');
    const guarded = <T>(perform: () => T): T => {
      const failure = fail(sql);
      if (failure === true) throw lost();
      const result = perform();
      if (failure === 'after') throw lost();
      return result;
    };
    return {
      bind: (...next) => statement(sql, next),
      first: async <T>() => guarded(() => ((db.prepare(sql).get(...values) as T | undefined) ?? null) as T | null),
      all: async <T>() => guarded(() => ({ results: db.prepare(sql).all(...values) as T[] })),
      run: async () => guarded(() => ({ meta: { changes: db.prepare(sql).run(...values).changes } })),
    };
  };
  const binding: D1Binding = { prepare: (sql) => statement(sql, []) };
  return { binding, db, close: () => db.close() };
}
