// The inbox's tables come from the .sql files in migrations/, the files Cloudflare's
// `wrangler d1 migrations apply` runs for D1. On Node they are applied when the inbox opens, in
// order, each in a transaction with SQLite's user_version counting those applied. An inbox made
// before the files existed (user_version 0) takes the first one as a no-op: it only creates what
// is missing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generatorRoot } from '../project.ts';

/** Shipped with the package (its `files` hold src/), so lib/ and the sources read the same ones. */
const MIGRATIONS_DIR = path.join(generatorRoot, 'src', 'inbox', 'migrations');

export interface Migration {
  name: string;
  sql: string;
}

export function inboxMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name), 'utf8') }));
}

/** The script that applies the migrations after the first `applied`, or undefined when none is left. */
export function migrationScript(applied: number, migrations = inboxMigrations()): string | undefined {
  const pending = migrations.slice(applied);
  if (pending.length === 0) return undefined;
  return [
    'BEGIN;',
    ...pending.map((migration) => migration.sql),
    `PRAGMA user_version = ${migrations.length};`,
    'COMMIT;',
  ].join('\n');
}
