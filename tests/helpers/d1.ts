import Database from 'better-sqlite3';
import type { D1Binding, D1Statement } from '../../src/server/inbox-d1.ts';
import { inboxMigrations } from '../../src/server/inbox-migrations.ts';

/**
 * Cloudflare D1's binding, in process: an in-memory SQLite database with the inbox's migrations
 * applied (as `wrangler d1 migrations apply` does), answering in D1's shapes. `fail` decides, per
 * call, whether the store is down (it then throws as D1 does when it cannot be reached).
 */
export function memoryD1(fail: (sql: string) => boolean = () => false) {
  const db = new Database(':memory:');
  for (const migration of inboxMigrations()) db.exec(migration.sql);
  const statement = (sql: string, values: unknown[]): D1Statement => {
    const guard = () => {
      if (fail(sql)) throw new Error('D1_ERROR: Network connection lost.');
    };
    return {
      bind: (...next) => statement(sql, next),
      async first<T>() {
        guard();
        return ((db.prepare(sql).get(...values) as T | undefined) ?? null) as T | null;
      },
      async all<T>() {
        guard();
        return { results: db.prepare(sql).all(...values) as T[] };
      },
      async run() {
        guard();
        return { meta: { changes: db.prepare(sql).run(...values).changes } };
      },
    };
  };
  const binding: D1Binding = { prepare: (sql) => statement(sql, []) };
  return { binding, db, close: () => db.close() };
}
