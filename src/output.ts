import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SsgError } from './errors.ts';

export interface OutputFile {
  /** Path inside the output folder, forward slashes. */
  path: string;
  contents: string | Uint8Array;
}

/** Lists every file below `dir`, as paths relative to it with forward slashes. */
export async function listFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Writes files with a bounded number in flight: fast, without exhausting file handles. */
export async function writeFiles(dir: string, files: readonly OutputFile[], concurrency = 64): Promise<void> {
  const folders = new Set(files.map((file) => path.dirname(path.join(dir, file.path))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await writeFile(path.join(dir, file.path), file.contents);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
}

/** The same, synchronously: for the few files of an incremental rebuild. */
export function writeFilesSync(dir: string, files: readonly OutputFile[]): void {
  for (const folder of new Set(files.map((file) => path.dirname(path.join(dir, file.path))))) mkdirSync(folder, { recursive: true });
  for (const file of files) writeFileSync(path.join(dir, file.path), file.contents);
}

/**
 * Deletes a folder without making the build wait: the old output is already out of the way, and
 * removing a thousand files is the slowest part of a rebuild that changed nothing.
 */
function removeInBackground(folder: string): void {
  try {
    spawn('rm', ['-rf', folder], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    void rm(folder, { recursive: true, force: true });
  }
}

/**
 * A complete site written beside `outDir` and swapped in only when everything is written, so a
 * failure at any point leaves the previous output as it was. Files may be written as they are
 * made; `commit` waits for them, then swaps.
 */
export async function createStagedOutput(outDir: string, publicDir: string) {
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${outDir}.tmp-${stamp}`;
  const previous = `${outDir}.old-${stamp}`;
  const publicFiles = await listFiles(publicDir);
  await mkdir(staging, { recursive: true });
  if (publicFiles.length > 0) await cp(publicDir, staging, { recursive: true });
  const folders = new Set<string>();
  const writes: Promise<void>[] = [];
  const generated = new Set<string>();
  const publicSet = new Set(publicFiles);

  const ensureFolder = (folder: string) => {
    if (folders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  };

  const abort = () => rm(staging, { recursive: true, force: true });

  return {
    staging,
    publicFiles,
    write(file: OutputFile): void {
      if (publicSet.has(file.path)) {
        throw new SsgError('OutputFailed', `The public file ${file.path} has the same path as a generated file.`, {
          file: path.join(path.basename(path.dirname(publicDir)), path.basename(publicDir), file.path),
        }, { hint: 'Rename or remove the public file; the page or asset of that path is made by the build.' });
      }
      generated.add(file.path);
      const target = path.join(staging, file.path);
      // Synchronously, as pages are made: a thousand small files go faster this way than queued
      // behind each other in the thread pool, and the build has nothing else to do meanwhile.
      try {
        ensureFolder(path.dirname(target));
        writeFileSync(target, file.contents);
      } catch (error) {
        writes.push(Promise.reject(error));
      }
    },
    /** Every path the site will have: generated and public files. */
    paths: () => new Set([...generated, ...publicFiles]),
    async commit(): Promise<void> {
      try {
        await Promise.all(writes);
        const hadPrevious = existsSync(outDir);
        if (hadPrevious) await rename(outDir, previous);
        try {
          await rename(staging, outDir);
        } catch (error) {
          if (hadPrevious) await rename(previous, outDir);
          throw error;
        }
        if (hadPrevious) removeInBackground(previous);
      } catch (error) {
        await abort();
        throw new SsgError('OutputFailed', `Could not write ${outDir}: ${(error as Error).message}`, {}, { cause: error });
      }
    },
    async abort(): Promise<void> {
      await Promise.allSettled(writes);
      await abort();
    },
  };
}

export type StagedOutput = Awaited<ReturnType<typeof createStagedOutput>>;
