// Dev mode's way of writing the site: into its folder in place, only the files that differ from
// what it wrote last, so a rebuild writes a handful of files. `build` writes the same set of files
// into a staging folder and swaps it in instead (see output.ts).
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import type { Output } from './output-file.ts';

const sameContents = (a: string | Uint8Array, b: string | Uint8Array | undefined) =>
  a === b ||
  (b !== undefined &&
    typeof a !== 'string' &&
    typeof b !== 'string' &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b));

/** Size and modification time of a public file: it is copied again when they change. */
function signature(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat?.isFile() ? `${stat.size}:${stat.mtimeMs}` : undefined;
}

export interface InPlaceOutput {
  /** Makes the folder hold exactly these generated files and public files; returns the paths written. */
  sync(files: ReadonlyMap<string, string | Uint8Array>, publicFiles: ReadonlySet<string>): Set<string>;
}

/** `outDir` must be a folder this process owns (dev's own, emptied at start). */
export function createInPlaceOutput(outDir: string, publicDir: string): InPlaceOutput {
  const written = new Map<string, string | Uint8Array>();
  const copied = new Map<string, string>();
  const folders = new Set<string>();
  const target = (file: string) => path.join(outDir, file);
  const ensureFolder = (file: string) => {
    const folder = path.dirname(target(file));
    if (folders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  };
  const remove = (file: string) => rmSync(target(file), { force: true });

  const syncPublic = (publicFiles: ReadonlySet<string>, changed: Set<string>) => {
    for (const file of copied.keys()) {
      if (!publicFiles.has(file)) {
        copied.delete(file);
        remove(file);
      }
    }
    for (const file of publicFiles) {
      const current = signature(path.join(publicDir, file));
      if (current === undefined || copied.get(file) === current) continue;
      ensureFolder(file);
      copyFileSync(path.join(publicDir, file), target(file));
      copied.set(file, current);
      written.delete(file);
      changed.add(file);
    }
  };

  return {
    sync(files, publicFiles) {
      const changed = new Set<string>();
      for (const file of written.keys()) {
        if (!files.has(file)) {
          written.delete(file);
          if (!publicFiles.has(file)) remove(file);
        }
      }
      syncPublic(publicFiles, changed);
      // Synchronously: a handful of files, and the thread pool may be busy with the watcher's stats.
      for (const [file, contents] of files) {
        if (sameContents(contents, written.get(file))) continue;
        ensureFolder(file);
        writeFileSync(target(file), contents);
        written.set(file, contents);
        changed.add(file);
      }
      return changed;
    },
  };
}

/**
 * Dev's output: the folder written in place once the run's checks passed, only the files that
 * differ from what was written last; a first run (`first`) empties it first. Reports the paths written.
 */
export function inPlaceOutput(outDir: string, publicDir: string) {
  let folder = createInPlaceOutput(outDir, publicDir);
  return async (first: boolean, publicFiles: ReadonlySet<string>): Promise<Output<Set<string>>> => {
    const files = new Map<string, string | Uint8Array>();
    return {
      write: (file) => void files.set(file.path, file.contents),
      async commit() {
        if (first) {
          await rm(outDir, { recursive: true, force: true });
          await mkdir(outDir, { recursive: true });
          folder = createInPlaceOutput(outDir, publicDir);
        }
        return folder.sync(files, publicFiles);
      },
      abort: async () => {},
    };
  };
}
