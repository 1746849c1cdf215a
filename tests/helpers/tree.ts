import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** What a tree holds: path → kind and contents (hash of a file, target of a link), links not followed. */
export type TreeSnapshot = Map<string, string>;

/** Every entry below `dir`, but for the `skip` folders (absolute paths) and what is in them. */
export function snapshotTree(dir: string, skip: readonly string[] = [], limit = 20_000): TreeSnapshot {
  const snapshot: TreeSnapshot = new Map();
  const visit = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (snapshot.size > limit) throw new Error(`more than ${limit} entries below ${dir}`);
      const file = path.join(folder, name);
      if (skip.includes(file)) continue;
      const stat = lstatSync(file);
      const key = path.relative(dir, file);
      if (stat.isSymbolicLink()) snapshot.set(key, `link → ${readlinkSync(file)}`);
      else if (stat.isDirectory()) {
        snapshot.set(key, 'folder');
        visit(file);
      } else
        snapshot.set(
          key,
          `file ${stat.size} ${createHash('sha1').update(readFileSync(file)).digest('hex')} ${stat.mtimeMs}`,
        );
    }
  };
  visit(dir);
  return snapshot;
}

/** The entries that differ between two snapshots, as readable lines (empty when none). */
export function treeChanges(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changes: string[] = [];
  for (const [key, value] of before) {
    if (!after.has(key)) changes.push(`removed ${key}`);
    else if (after.get(key) !== value) changes.push(`changed ${key}`);
  }
  for (const key of after.keys()) if (!before.has(key)) changes.push(`added ${key}`);
  return changes;
}

/** Pids of processes whose command line or working folder mentions `dir` (Linux /proc). */
export function processesUsing(dir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') continue; // ended, waiting to be reaped
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // not ours to read
      }
      if (cmdline.includes(dir) || cwd === dir || cwd.startsWith(dir + path.sep)) found.push(Number(name));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** Polls `condition` until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return condition();
}
