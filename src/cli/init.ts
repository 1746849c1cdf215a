// `ssg init <folder>`: a new site from the starter the package ships (starter/): a route table, a
// page, an island, one article, the document shell and a short README. Written into a folder of its
// own beside the target and renamed into place whole, so a failure leaves nothing half-written, and
// never over anything: the target must not exist or be an empty folder.
import { randomBytes } from 'node:crypto';
import { cpSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { catalogueError } from '../errors.ts';
import { generatorRoot } from '../project.ts';

/** Files whose names npm would not pack as they are: shipped under another name, renamed here. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore' };

export interface InitResult {
  /** The site's folder, as given. */
  folder: string;
  files: string[];
}

export function initSite(folder: string, cwd = process.cwd()): InitResult {
  const target = path.resolve(cwd, folder);
  checkTarget(target, folder);
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    cpSync(path.join(generatorRoot, 'starter'), staging, { recursive: true, errorOnExist: true, force: false });
    for (const [from, to] of Object.entries(RENAMED)) renameSync(path.join(staging, from), path.join(staging, to));
    // Onto an empty folder, rename replaces it; onto one that gained an entry meanwhile, it fails.
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw catalogueError('InitFolderNotEmpty', [folder], { file: folder });
    throw catalogueError('InitFailed', [folder, (error as Error).message], { file: folder }, { cause: error });
  }
  return { folder, files: listFiles(target) };
}

function checkTarget(target: string, shown: string): void {
  let stats;
  try {
    stats = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw catalogueError('InitFailed', [shown, (error as Error).message], { file: shown }, { cause: error });
  }
  if (!stats.isDirectory()) throw catalogueError('InitFolderNotEmpty', [shown], { file: shown });
  if (readdirSync(target).length > 0) throw catalogueError('InitFolderNotEmpty', [shown], { file: shown });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
