// `ssg init <folder>`: a new site from the starter the package ships (starter/). Never written over
// anything: the folder must not exist or be empty (a `.git` aside). The starter is staged and then
// renamed or moved in, so a failure or a signal leaves nothing of it behind.
import { randomBytes } from 'node:crypto';
import { constants, copyFileSync, cpSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { catalogueError, SsgError } from '../errors/errors.ts';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { listFiles } from '../output/output-file.ts';
import { generatorRoot } from '../project.ts';

/** Files whose names npm would not pack as they are: shipped under another name, renamed here. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore' };

/** What may already be in the folder: a repository made for the site first. */
const ALLOWED = new Set(['.git']);

export interface InitResult {
  /** The site's folder, absolute. */
  target: string;
  /** The files written, relative to it. */
  files: string[];
}

export async function initSite(
  folder: string,
  cwd = process.cwd(),
  interrupts: Interrupts = noInterrupts,
): Promise<InitResult> {
  if (folder.trim() === '') throw catalogueError('InitFolderMissing', []);
  const target = path.resolve(cwd, folder);
  const exists = checkTarget(target, folder);
  const short = `.ssg-init-${process.pid}-${randomBytes(4).toString('hex')}`;
  const made: string[] = [];
  const undo = () => {
    for (const entry of made.reverse()) rmSync(entry, { recursive: true, force: true });
  };
  const unregister = interrupts.on(undo);
  let files: string[];
  try {
    if (!exists) {
      const parent = path.dirname(target);
      const created = mkdirSync(parent, { recursive: true });
      if (created) made.push(created);
    }
    const staging = exists ? path.join(target, short) : path.join(path.dirname(target), short);
    made.push(staging);
    cpSync(path.join(generatorRoot, 'starter'), staging, { recursive: true, errorOnExist: true, force: false });
    for (const [from, to] of Object.entries(RENAMED)) renameSync(path.join(staging, from), path.join(staging, to));
    files = await listFiles(staging);
    if (exists) {
      for (const name of readdirSync(staging)) {
        // Fails rather than replaces: an entry that appeared meanwhile is the user's. A file is
        // copied in exclusively (which fails on an existing name) and a folder renamed (which
        // fails on one that holds anything).
        const from = path.join(staging, name);
        const to = path.join(target, name);
        if (lstatSync(to, { throwIfNoEntry: false }))
          throw Object.assign(new Error(`${name} appeared meanwhile`), { code: 'EEXIST' });
        if (lstatSync(from).isDirectory()) renameSync(from, to);
        else copyFileSync(from, to, constants.COPYFILE_EXCL);
        made.push(to);
      }
      rmSync(staging, { recursive: true, force: true });
    } else {
      // Onto a folder made meanwhile, rename fails if it holds anything and replaces it if empty.
      renameSync(staging, target);
      made.push(target);
    }
  } catch (error) {
    try {
      undo();
    } catch {
      // The first failure is the one to report.
    }
    if (error instanceof SsgError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST')
      throw catalogueError('InitFolderNotEmpty', [folder], { file: folder });
    throw catalogueError('InitFailed', [folder, (error as Error).message], { file: folder }, { cause: error });
  } finally {
    unregister();
  }
  return { target, files };
}

/** Whether the target exists (as an empty folder); throws when it may not be used. */
function checkTarget(target: string, shown: string): boolean {
  let stats;
  try {
    stats = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw catalogueError('InitFailed', [shown, (error as Error).message], { file: shown }, { cause: error });
  }
  if (!stats.isDirectory()) throw catalogueError('InitFolderNotEmpty', [shown], { file: shown });
  const found = readdirSync(target)
    .filter((name) => !ALLOWED.has(name))
    .sort();
  if (found.length > 0) throw catalogueError('InitFolderNotEmpty', [shown, namedEntries(found)], { file: shown });
  return true;
}

/** `".DS_Store"`, `"a", "b"`, `"a", "b" and 3 more`: the first entries of a folder, by name. */
function namedEntries(names: string[]): string {
  const named = names
    .slice(0, 2)
    .map((name) => JSON.stringify(name))
    .join(', ');
  return names.length > 2 ? `${named} and ${names.length - 2} more` : named;
}
