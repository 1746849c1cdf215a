// The staged output: a complete site written beside the output folder, then swapped in.
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { catalogueError, type ErrorDetails, type SsgError } from '../errors/errors.ts';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { listEntries, outputHash, type OutputFile } from './output-file.ts';
import { carrySource, intactManifest, saveManifest } from './output-manifest.ts';
import { markOutput } from './output-target.ts';
import { stagingWriter, startStaging, swapInStaging } from './staging-folder.ts';

/**
 * An entry of the public folder at a path the build makes a page, asset or site file for (or
 * needs a folder at, or writes as a file above it: the case says which), named by its path.
 */
export function publicFileClash(publicDir: string, clash: ErrorDetails<'PublicFileClash'>): SsgError {
  return catalogueError('PublicFileClash', clash, {
    file: path.join(path.basename(path.dirname(publicDir)), path.basename(publicDir), clash[1]),
  });
}

/** A made file where a public file or folder is: one of the two would be lost. */
function refuseOverPublic(
  file: string,
  publicFiles: ReadonlySet<string>,
  publicFolders: ReadonlySet<string>,
  publicDir: string,
): void {
  if (publicFiles.has(file)) throw publicFileClash(publicDir, ['samePath', file]);
  if (publicFolders.has(file)) throw publicFileClash(publicDir, ['folderWhereAFileIs', file]);
}

/**
 * The public files, as a list and a set, and the folders the clash checks see: an empty folder is
 * copied with the files (never alone), and a file cannot be written over it.
 */
async function publicEntries(publicDir: string) {
  const { files: publicFiles, folders } = await listEntries(publicDir);
  return {
    publicFiles,
    publicFolders: new Set(publicFiles.length > 0 ? folders : []),
    publicSet: new Set(publicFiles),
  };
}

/**
 * A complete site written beside `outDir` and swapped in once all is written, so a failure leaves
 * the previous output intact. With a `manifestFile`, a build identical to the output writes
 * nothing: writing starts at the first file that differs. Files the output already holds are
 * carried over as hard links (`carries(path, hash)` says which; their contents are never asked for).
 */
export async function createStagedOutput(
  outDir: string,
  publicDir: string,
  options: { manifestFile?: string; interrupts?: Interrupts } = {},
) {
  const interrupts = options.interrupts ?? noInterrupts;
  interrupts.setOutcome('nothing was swapped in');
  const stamp = `${process.pid}-${Date.now()}`;
  const [staging, previous] = [`${outDir}.tmp-${stamp}`, `${outDir}.old-${stamp}`];
  const { publicFiles, publicFolders, publicSet } = await publicEntries(publicDir);
  const generated = new Map<string, string>();
  const { write: writeToStaging, writes, onDisk } = stagingWriter(staging);
  const { manifestFile } = options;
  const manifest = intactManifest(manifestFile, outDir, publicDir, publicFiles);
  const carriedFrom = (file: string) => carrySource(manifest, outDir, file, generated.get(file));
  /** While set, files are only compared with the manifest and held; nothing is on disk yet. */
  let held: Map<string, OutputFile> | undefined = manifest ? new Map() : undefined;

  let unregisterStaging = () => {};
  /** Leaves comparing for writing: everything held so far goes to the staging folder. */
  const startWriting = () => {
    if (!held) return;
    const pending = held;
    held = undefined;
    unregisterStaging = startStaging(staging, outDir, publicDir, publicFiles, interrupts);
    for (const [file, source] of pending) writeToStaging(file, () => source.contents, carriedFrom(file));
  };

  if (!held) unregisterStaging = startStaging(staging, outDir, publicDir, publicFiles, interrupts);

  const abort = async () => {
    await rm(staging, { recursive: true, force: true });
    unregisterStaging();
  };

  return {
    staging,
    publicFiles,
    write(file: OutputFile): void {
      refuseOverPublic(file.path, publicSet, publicFolders, publicDir);
      const hash = file.hash ?? outputHash(file.contents);
      if (generated.get(file.path) === hash) return; // already written (the site's images are written as they are ready, then with the rest)
      generated.set(file.path, hash);
      if (held) {
        if (manifest!.hashes[file.path] === hash) {
          held.set(file.path, file);
          return;
        }
        startWriting();
      }
      writeToStaging(file.path, () => file.contents, carriedFrom(file.path));
    },
    carries: (file: string, hash: string) => carrySource(manifest, outDir, file, hash) !== undefined,
    /** Where the file written for `file` is on disk now (in the staging folder), if it is: until the commit. */
    pathOf: (file: string) => (onDisk.has(file) ? path.join(staging, file) : undefined),
    /** Swaps the new output in; false when the output folder already held exactly this site. */
    async commit(): Promise<boolean> {
      if (held && generated.size === Object.keys(manifest!.hashes).length) {
        markOutput(outDir);
        return false;
      }
      startWriting();
      const hadPrevious = await swapInStaging(staging, outDir, previous, writes, abort);
      unregisterStaging();
      markOutput(outDir);
      interrupts.setOutcome(`the new site is in place in ${outDir}`);
      // Removed by this process, before it ends: a build leaves no process behind. If it is
      // stopped meanwhile, the next build removes the rest.
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
      // Without a manifest the next build writes everything again: not worth failing this one for.
      if (manifestFile) await saveManifest(manifestFile, outDir, publicDir, generated, publicFiles).catch(() => {});
      return true;
    },
    async abort(): Promise<void> {
      await Promise.allSettled(writes);
      if (!held) await abort();
    },
  };
}
