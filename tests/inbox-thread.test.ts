import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDataDir } from '../src/inbox/data-dir.ts';
import {
  InboxFileReplacedError,
  openInboxThread,
  openSqliteInbox,
  readInbox,
  type AsyncInbox,
} from '../src/inbox/inbox-sqlite.ts';
import { SsgError } from '../src/errors/errors.ts';

const message = (n: number) => ({
  name: `Visitor ${n}`,
  email: `v${n}@example.org`,
  subject: `Question ${n}`,
  message: 'Hello',
  receivedAt: new Date().toISOString(),
  clientAddress: '127.0.0.1',
});

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ssg-inbox-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
async function open(dir: string): Promise<AsyncInbox> {
  const inbox = await openInboxThread(dir);
  cleanups.push(() => inbox.close());
  return inbox;
}

/** The longest the event loop went without running a 10 ms timer while `work` ran. */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = Date.now();
  let done = false;
  const settled = work.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    longest = Math.max(longest, Date.now() - last);
    last = Date.now();
  }
  await settled;
  return longest;
}

describe('the inbox on a worker thread', () => {
  it('takes an inbox made before the migrations (no user_version) as it is, and migrates it once', async () => {
    const dir = tempDir();
    const old = new Database(path.join(dir, 'inbox.sqlite'));
    // The table as serve created it before the migrations existed, with a message in it.
    old.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at TEXT NOT NULL, client_address TEXT NOT NULL,
      name TEXT NOT NULL, email TEXT NOT NULL, subject TEXT NOT NULL, message TEXT NOT NULL, delivered_at TEXT,
      attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, next_attempt_at TEXT)`);
    old
      .prepare(
        'INSERT INTO messages (received_at, client_address, name, email, subject, message, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        '2026-01-01T00:00:00.000Z',
        '127.0.0.1',
        'Old',
        'old@example.org',
        'Kept',
        'From before',
        '2026-01-01T00:00:00.000Z',
      );
    old.close();
    const inbox = await open(dir);
    expect((await inbox.list()).map((stored) => stored.name)).toEqual(['Old']);
    const first = await inbox.add(message(1));
    // The same form again within the window is the same message.
    expect(await inbox.add({ ...message(1), receivedAt: new Date(Date.now() + 1000).toISOString() })).toBe(first);
    expect(await inbox.list()).toHaveLength(2);
    await inbox.close();
    const check = new Database(path.join(dir, 'inbox.sqlite'), { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    expect(
      check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'messages_by_sender'").all(),
    ).toHaveLength(1);
    check.close();
    // Opened again: nothing left to apply, nothing lost.
    const again = openSqliteInbox(dir);
    expect(again.list()).toHaveLength(2);
    again.close();
  });

  it('stores, lists, marks delivered once, and is readable by the synchronous reader', async () => {
    const dir = tempDir();
    const inbox = await open(dir);
    const id = await inbox.add(message(1));
    await inbox.add(message(2));
    expect((await inbox.due(new Date(Date.now() + 1000))).map((m) => m.subject)).toEqual(['Question 1', 'Question 2']);
    expect(await inbox.markDelivered(id, new Date())).toBe(true);
    expect(await inbox.markDelivered(id, new Date())).toBe(false);
    expect(readInbox(dir, { undelivered: true }).map((m) => m.subject)).toEqual(['Question 2']);
  });

  it('refuses a message once the file was deleted, instead of writing it where nobody will look', async () => {
    const dir = tempDir();
    const inbox = await open(dir);
    await inbox.add(message(1));
    unlinkSync(path.join(dir, 'inbox.sqlite'));
    await expect(inbox.add(message(2))).rejects.toBeInstanceOf(InboxFileReplacedError);
    // The messages of the open file can still be delivered.
    expect((await inbox.list()).map((m) => m.subject)).toEqual(['Question 1']);
  });

  it('refuses a message once the file was replaced by another one', async () => {
    const dir = tempDir();
    const inbox = await open(dir);
    await inbox.add(message(1));
    const other = tempDir();
    openSqliteInbox(other).close();
    renameSync(path.join(other, 'inbox.sqlite'), path.join(dir, 'inbox.sqlite'));
    await expect(inbox.add(message(2))).rejects.toThrow(/deleted or replaced/);
    await expect(inbox.add(message(3))).rejects.toThrow(/deleted or replaced/);
  });

  it('waits on a database locked by another process without stalling the event loop, then fails', async () => {
    const dir = tempDir();
    const inbox = await open(dir);
    const file = path.join(dir, 'inbox.sqlite');
    // Another process holds BEGIN EXCLUSIVE; this connection stands in for it (SQLite locks per file).
    const holder = new Database(file);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    const adding = inbox.add(message(1));
    const stall = await longestStall(adding);
    await expect(adding).rejects.toThrow(/locked/);
    expect(stall).toBeLessThan(1000);
    holder.exec('ROLLBACK');
    expect(await inbox.add(message(2))).toBeGreaterThan(0);
  }, 30_000);

  it('reads nothing and creates nothing for inbox list when there is no inbox yet', () => {
    const dir = path.join(tempDir(), 'absent');
    expect(readInbox(dir)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('claiming the data folder', () => {
  it('lets one server have it at a time, and frees it on release', () => {
    const dir = tempDir();
    const first = claimDataDir(dir);
    cleanups.push(() => first.release());
    let error: unknown;
    try {
      claimDataDir(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SsgError);
    expect((error as SsgError).code).toBe('DataDirInUse');
    expect((error as SsgError).where).toBe(dir);
    first.release();
    claimDataDir(dir).release();
  });

  it('is free again after the process that held it is killed', () => {
    const dir = tempDir();
    const script = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(path.join(dir, 'serve.lock'))},{timeout:0});d.pragma('locking_mode = EXCLUSIVE');d.exec('BEGIN EXCLUSIVE');process.kill(process.pid,'SIGKILL')`;
    expect(spawnSync(process.execPath, ['-e', script]).signal).toBe('SIGKILL');
    claimDataDir(dir).release();
  });

  it('names the folder when it is a file, not a folder', () => {
    const dir = tempDir();
    const file = path.join(dir, 'data');
    writeFileSync(file, 'not a folder');
    expect(() => claimDataDir(file)).toThrow(expect.objectContaining({ code: 'DataDirUnwritable', file }));
  });

  it('names the folder when it is on a read-only file system', (context) => {
    const dir = tempDir();
    const mountPoint = path.join(dir, 'ro');
    mkdirSync(mountPoint);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mountPoint]);
    if (mounted.status !== 0) {
      context.skip(`mounting a read-only tmpfs needs root and CAP_SYS_ADMIN: ${String(mounted.stderr).trim()}`);
      return;
    }
    cleanups.push(() => spawnSync('umount', [mountPoint]));
    expect(() => claimDataDir(path.join(mountPoint, 'data'))).toThrow(
      expect.objectContaining({ code: 'DataDirUnwritable' }),
    );
    expect(() => claimDataDir(mountPoint)).toThrow(/cannot be written to \(EROFS\)/);
  });
});

describe('inbox list and export on the command line', () => {
  it('print a hostile stored message without a single raw control character', async () => {
    const { runCli } = await import('./helpers/project.ts');
    const dir = tempDir();
    const store = openSqliteInbox(dir);
    store.add({
      ...message(1),
      name: 'Eve\x1b[2J\x1b]0;owned\x07\n#2  forged',
      subject: 'S\u202eevil\u2028x\u009b1m',
      email: 'e@x.org\r\nBcc: x',
    });
    store.close();
    const list = await runCli(['inbox', 'list', '--data-dir', dir], dir);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')).toHaveLength(2); // one line and the final newline
    expect(list.stdout.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/u);
    expect(list.stdout).toContain('Eve\\u001B[2J');
    const exported = await runCli(['inbox', 'export', '--json', '--data-dir', dir], dir);
    expect(exported.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/u);
    expect(JSON.parse(exported.stdout)[0].subject).toBe('S\u202eevil\u2028x\u009b1m');
  }, 30_000);
});
