// Precompressed siblings (src/output/precompress.ts): brotli's best for hashed assets, a faster
// level for the sitemap and feed (they change with every article), gzip's best for both.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCompressedCache } from '../src/output/precompress.ts';

describe('precompressed siblings', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'ssg-precompress-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  const text = Buffer.from(
    Array.from({ length: 400 }, (_, index) => `<url><loc>https://example.org/news/post-${index}</loc></url>`).join(
      '\n',
    ),
  );
  const brotliAt = (quality: number) =>
    brotliCompressSync(text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
    });

  it('compress assets at brotli 11 and other files at 9, each decompressing to the file, kept apart in the cache', async () => {
    const cache = openCompressedCache(cacheDir);
    const files = await cache.compress([
      { path: 'assets/app-AB12.js', contents: text },
      { path: 'sitemap.xml', contents: text },
    ]);
    const byPath = new Map(files.map((file) => [file.path, Buffer.from(file.contents)]));
    expect([...byPath.keys()].sort()).toEqual([
      'assets/app-AB12.js.br',
      'assets/app-AB12.js.gz',
      'sitemap.xml.br',
      'sitemap.xml.gz',
    ]);
    expect(byPath.get('assets/app-AB12.js.br')!.equals(brotliAt(11))).toBe(true);
    expect(byPath.get('sitemap.xml.br')!.equals(brotliAt(9))).toBe(true);
    for (const [where, bytes] of byPath)
      expect((where.endsWith('.br') ? brotliDecompressSync(bytes) : gunzipSync(bytes)).equals(text)).toBe(true);
    // From the cache the second time, at the same levels.
    const again = await openCompressedCache(cacheDir).compress([{ path: 'sitemap.xml', contents: text }]);
    expect(Buffer.from(again.find((file) => file.path === 'sitemap.xml.br')!.contents).equals(brotliAt(9))).toBe(true);
  });
});
