import { createHash } from 'node:crypto';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { pruneEntries, readEntry, removeAbandonedTemporaries, writeEntrySync } from '../cache/store.ts';
import { outputBaseName, processImage, sharpVersion, type ImageSettings, type ProcessedImage } from './process.ts';

/**
 * Processed images kept between builds, one store entry per source image, by a hash of its bytes,
 * sharp's and libvips' versions, the settings and the assets folder: a changed file, an upgrade or
 * new widths encode again. Entries this build did not use are pruned at its end.
 */
export interface ImageCache {
  /** The processed image, from the cache or encoded now (and kept). */
  process(bytes: Uint8Array, file: string): Promise<ProcessedImage>;
  readonly counts: { cached: number; processed: number };
  /** Removes entries no image of this build used (and temporaries of dead writers). */
  prune(): void;
  /** A processed image kept under the entry `name` (noted as used), or undefined when it is not there. */
  load(name: string): Promise<ProcessedImage | undefined>;
  /** The same cache, also noting in `names` each entry it hands out: what one article's images need. */
  recording(names: Set<string>): ImageProcessor;
  /**
   * Dev mode: removes the entries not in `inUse` (what the site shows now), sparing those written
   * since `since`, by a rebuild still running. Returns how many went.
   */
  pruneExcept(inUse: ReadonlySet<string>, since: number): number;
}

/** What the image stages need of the cache: an image, processed or taken from it. */
export type ImageProcessor = Pick<ImageCache, 'process'>;

const ENTRY = /^[0-9a-f]{64}\.bin$/;

export const imageCacheDir = (cacheDir: string) => path.join(cacheDir, 'images');

/** The entry of an image: its bytes, how it is processed, and the name its output files take from its file (two files with the same bytes are two entries). */
export function imageKey(bytes: Uint8Array, settings: ImageSettings, assetsDir: string, file: string): string {
  return createHash('sha256')
    .update(`${sharpVersion()}\0${JSON.stringify(settings)}\0${assetsDir}\0${outputBaseName(file)}\0`)
    .update(bytes)
    .digest('hex');
}

const isProcessed = (value: unknown): value is ProcessedImage => {
  const image = value as ProcessedImage | null;
  return (
    typeof image === 'object' &&
    image !== null &&
    Number.isInteger(image.width) &&
    Number.isInteger(image.height) &&
    typeof image.fallback === 'string' &&
    Array.isArray(image.variants) &&
    image.variants.length > 0 &&
    image.variants.every((variant) => typeof variant.path === 'string' && variant.contents instanceof Uint8Array)
  );
};

export function openImageCache(options: {
  cacheDir: string;
  settings: ImageSettings;
  assetsDir: string;
  started?: number;
}): ImageCache {
  const dir = imageCacheDir(options.cacheDir);
  const started = options.started ?? Date.now();
  const used = new Set<string>();
  const counts = { cached: 0, processed: 0 };
  const load = async (name: string): Promise<ProcessedImage | undefined> => {
    if (!ENTRY.test(name)) return undefined;
    used.add(name);
    const payload = await readEntry(path.join(dir, name));
    if (!payload) return undefined;
    try {
      const stored: unknown = deserialize(payload);
      return isProcessed(stored) ? stored : undefined;
    } catch {
      return undefined; // damaged beyond the checksum's reach
    }
  };
  const process = async (bytes: Uint8Array, file: string, record?: Set<string>): Promise<ProcessedImage> => {
    const name = `${imageKey(bytes, options.settings, options.assetsDir, file)}.bin`;
    record?.add(name);
    const stored = await load(name);
    if (stored) {
      counts.cached++;
      return stored;
    }
    const image = await processImage(bytes, file, { settings: options.settings, assetsDir: options.assetsDir });
    counts.processed++;
    try {
      writeEntrySync(path.join(dir, name), serialize(image));
    } catch {
      // Not kept: the next build encodes it again.
    }
    return image;
  };
  return {
    counts,
    load,
    process: (bytes, file) => process(bytes, file),
    recording: (names) => ({ process: (bytes, file) => process(bytes, file, names) }),
    prune() {
      pruneEntries(dir, { used, isEntry: (entry) => ENTRY.test(entry), since: started });
      removeAbandonedTemporaries(dir);
    },
    pruneExcept(inUse, since) {
      const removed = pruneEntries(dir, { used: inUse, isEntry: (entry) => ENTRY.test(entry), since });
      removeAbandonedTemporaries(dir);
      return removed;
    },
  };
}
