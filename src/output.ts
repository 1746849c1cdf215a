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
async function listFiles(dir: string): Promise<string[]> {
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
 * Writes a complete site beside `outDir` and swaps it in only when everything is written, so a
 * failure at any point leaves the previous output as it was.
 */
export async function writeOutputAtomically(
  outDir: string,
  files: readonly OutputFile[],
  publicDir: string,
): Promise<void> {
  const publicFiles = await listFiles(publicDir);
  const generated = new Set(files.map((file) => file.path));
  const collision = publicFiles.find((file) => generated.has(file));
  if (collision) {
    throw new SsgError('OutputFailed', `The public file ${collision} has the same path as a generated file.`, {
      file: path.join(path.basename(path.dirname(publicDir)), path.basename(publicDir), collision),
    }, { hint: 'Rename or remove the public file; the page or asset of that path is made by the build.' });
  }

  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${outDir}.tmp-${stamp}`;
  const previous = `${outDir}.old-${stamp}`;
  try {
    await mkdir(staging, { recursive: true });
    if (publicFiles.length > 0) await cp(publicDir, staging, { recursive: true });
    await writeFiles(staging, files);
    const hadPrevious = existsSync(outDir);
    if (hadPrevious) await rename(outDir, previous);
    try {
      await rename(staging, outDir);
    } catch (error) {
      if (hadPrevious) await rename(previous, outDir);
      throw error;
    }
    if (hadPrevious) await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof SsgError) throw error;
    throw new SsgError('OutputFailed', `Could not write ${outDir}: ${(error as Error).message}`, {}, { cause: error });
  }
}
