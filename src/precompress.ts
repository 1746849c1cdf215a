import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { OutputFile } from './output.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth sending compressed. HTML pages are left to the server: there are thousands. */
const TEXT = /\.(js|mjs|css|svg|xml|webmanifest|txt|json)$/;

/**
 * `.br` (brotli, best) and `.gz` (gzip, best) siblings of text assets, for servers that send a
 * precompressed file when the client accepts it. Compressed once per content, kept in the cache.
 */
export async function precompress(files: readonly OutputFile[], cacheDir: string): Promise<OutputFile[]> {
  const dir = path.join(cacheDir, 'compressed');
  await mkdir(dir, { recursive: true });
  const siblings = await Promise.all(
    files
      .filter((file) => TEXT.test(file.path) && !file.path.startsWith('_'))
      .map(async (file) => {
        const contents = typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents;
        if (contents.length < 256) return [];
        const key = createHash('sha256').update(contents).digest('hex').slice(0, 32);
        const cached = async (suffix: string, make: () => Promise<Buffer>) => {
          const target = path.join(dir, `${key}.${suffix}`);
          try {
            return await readFile(target);
          } catch {
            const made = await make();
            await writeFile(target, made);
            return made;
          }
        };
        const [br, gz] = await Promise.all([
          cached('br', () => brotli(contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length } })),
          cached('gz', () => gzipAsync(contents, { level: 9 })),
        ]);
        return [
          { path: `${file.path}.br`, contents: br },
          { path: `${file.path}.gz`, contents: gz },
        ];
      }),
  );
  return siblings.flat();
}
