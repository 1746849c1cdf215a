import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { pruneEntries, readEntry, removeAbandonedTemporaries, writeEntrySync } from '../cache/store.ts';
import type { OutputFile } from './output-file.ts';
import { ASSETS_DIR } from '../project.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth sending compressed. HTML pages are left to the server: there are thousands. */
const TEXT = /\.(js|mjs|css|svg|xml|webmanifest|txt|json)$/;

/** The compressors' versions and settings: another zlib may make other (equally valid) bytes. */
const SETTINGS = `zlib ${process.versions.zlib} brotli ${process.versions.brotli ?? ''} gz 9`;

/**
 * Brotli's best (11) for the hashed assets, made once per content; 9 for the sitemap and feeds,
 * which change with every new article: slightly larger, much faster.
 */
const brotliQuality = (file: OutputFile) => (file.path.startsWith(`${ASSETS_DIR}/`) ? 11 : 9);

/** Entry names: 32 hex digits of the key, then the kind. */
const ENTRY = /^[0-9a-f]{32}\.(br|gz)$/;

export interface CompressedCache {
  /**
   * `.br` (brotli) and `.gz` (gzip, best) siblings of text assets, for servers that send a
   * precompressed file when the client accepts it. Compressed once per content and kept.
   */
  compress(files: readonly OutputFile[]): Promise<OutputFile[]>;
  /** Removes what this build did not use (and what writers that died left behind). */
  prune(): void;
}

/** Precompressed files kept in `<cacheDir>/compressed/`, each checked when read. */
export function openCompressedCache(cacheDir: string): CompressedCache {
  const dir = path.join(cacheDir, 'compressed');
  const opened = Date.now();
  const used = new Set<string>();

  const cached = async (name: string, make: () => Promise<Buffer>): Promise<Buffer> => {
    used.add(name);
    const file = path.join(dir, name);
    const kept = await readEntry(file);
    if (kept) return kept;
    const made = await make();
    try {
      writeEntrySync(file, made);
    } catch {
      // Not kept: made again next time.
    }
    return made;
  };

  const siblingsOf = async (file: OutputFile): Promise<OutputFile[]> => {
    const contents = typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents;
    if (contents.length < 256) return [];
    const quality = brotliQuality(file);
    const key = createHash('sha256')
      .update(`${SETTINGS} br ${quality}`)
      .update('\0')
      .update(contents)
      .digest('hex')
      .slice(0, 32);
    const [br, gz] = await Promise.all([
      cached(`${key}.br`, () =>
        brotli(contents, {
          params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length },
        }),
      ),
      cached(`${key}.gz`, () => gzipAsync(contents, { level: 9 })),
    ]);
    return [
      { path: `${file.path}.br`, contents: br },
      { path: `${file.path}.gz`, contents: gz },
    ];
  };

  return {
    async compress(files) {
      const wanted = files.filter((file) => TEXT.test(file.path) && !file.path.startsWith('_'));
      return (await Promise.all(wanted.map(siblingsOf))).flat();
    },
    prune() {
      removeAbandonedTemporaries(dir);
      pruneEntries(dir, { used, isEntry: (name) => ENTRY.test(name), since: opened });
    },
  };
}
