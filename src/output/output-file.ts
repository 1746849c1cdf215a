// A file of the built site, the output a run writes through, and the listing of a folder's files.
import { createHash } from 'node:crypto';
import { existsSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface OutputFile {
  /** Path inside the output folder, forward slashes. */
  path: string;
  /** The bytes; may be a getter that reads them only when asked (a cached drawn file, see `hash`). */
  readonly contents: string | Uint8Array;
  /**
   * `outputHash` of the contents, when known without them: a staged output that can carry the
   * file over from the output folder (the same hash there) then never asks for the contents.
   */
  hash?: string;
  /**
   * Its contents are not in memory: reading them reads a file (a page carried over from the page
   * cache). Who would read them early (the search) may leave them until it needs them.
   */
  unread?: boolean;
  /** A page that only sends its visitors on (a redirect's page for hosts without rules): where to. */
  redirectsTo?: string;
  /**
   * Written as it is, without precompressed siblings: a large file few visitors fetch (the
   * editor's bundle, for staff), where compressing it at the best setting would cost every cold
   * build seconds. Hosts compress it as they send it; `ssg serve` sends it as it is.
   */
  plain?: boolean;
}

/**
 * Lists every file below `dir`, as paths relative to it with forward slashes. Symlinks are listed
 * as files, whatever they lead to: the public folder is copied with them as they are, and a build
 * writing a page over one, or into one that leads to a folder, would write where it leads.
 */
export async function listFiles(dir: string): Promise<string[]> {
  return (await listEntries(dir)).files;
}

/** The files below `dir` (as listFiles lists them) and its folders, empty ones too. */
export async function listEntries(dir: string): Promise<{ files: string[]; folders: string[] }> {
  if (!existsSync(dir)) return { files: [], folders: [] };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: Dirent) =>
    path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
  return {
    files: entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map(relative),
    folders: entries.filter((entry) => entry.isDirectory()).map(relative),
  };
}

/** The hash the output manifest records of a file's contents. */
export const outputHash = (contents: string | Uint8Array) => createHash('sha1').update(contents).digest('base64');

/** Where a run's files go; `Written` is what the strategy reports of the files it wrote. */
export interface Output<Written> {
  /** A file of the site, written now (a staging folder) or when committed (in place). `compress`: worth precompressing. */
  write(file: OutputFile, compress?: boolean): void;
  /**
   * Starts what writing this file with `compress` will need (its precompressed siblings) while the
   * checks run; the file is written by `write` once they pass, or never.
   */
  prepare?(file: OutputFile): void;
  /** Where the file written for this path is on disk now, if it is (a staging folder's file): until the commit. */
  pathOf?(file: string): string | undefined;
  /** Whether a file of this path and hash (`outputHash`) is carried over as the output folder holds it: then its bytes need not be read. */
  carries?(file: string, hash: string): boolean;
  /** Every file is written: puts the site in place. */
  commit(): Promise<Written>;
  /** The run failed: removes what was written for it. */
  abort(): Promise<void>;
}
