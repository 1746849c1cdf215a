import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import { imageCacheDir, openImageCache } from '../src/images/image-cache.ts';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { pictureElement, pictureOf } from '../src/images/picture.ts';
import { processImage, variantWidths, type ImageSettings } from '../src/images/process.ts';

// Small widths and a low AVIF effort keep each encode to milliseconds.
const settings: ImageSettings = {
  widths: [16, 32, 48],
  maxPixels: 1_000_000,
  quality: { avif: 40, webp: 60, jpeg: 70 },
  avifEffort: 0,
  timeoutSeconds: 30,
};

const formats = ['png', 'jpeg', 'webp', 'avif', 'gif', 'tiff'] as const;

async function makeImage(
  width: number,
  height: number,
  format: (typeof formats)[number],
  alpha = false,
): Promise<Buffer> {
  const background = alpha ? { r: 20, g: 120, b: 200, alpha: 0.5 } : { r: 20, g: 120, b: 200 };
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background } })
    .toFormat(format)
    .toBuffer();
}

/** A valid PNG whose header claims other dimensions (the header's checksum fixed up). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = await makeImage(4, 4, 'png');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('variantWidths', () => {
  it('never upscales, always offers the original (capped at the largest width), ascending and unique', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 8 }),
        (original, widths) => {
          const chosen = variantWidths(original, widths);
          expect(chosen.length).toBeGreaterThan(0);
          expect(Math.max(...chosen)).toBe(Math.min(original, Math.max(...widths)));
          for (const width of chosen) expect(width).toBeLessThanOrEqual(original);
          expect([...chosen].sort((a, b) => a - b)).toEqual(chosen);
          expect(new Set(chosen).size).toBe(chosen.length);
        },
      ),
    );
  });
});

describe('processImage', () => {
  it('encodes random sizes and formats as AVIF, WebP and a fallback, never wider than the original, with hashed names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 90 }),
        fc.constantFrom(...formats),
        fc.boolean(),
        async (width, height, format, alpha) => {
          const source = await makeImage(width, height, format, alpha);
          const image = await processImage(source, `news/x/photo.${format}`, { settings });
          expect([image.width, image.height]).toEqual([width, height]);
          // Whether the source kept its alpha channel: JPEG has none, and sharp writes TIFF without it.
          const transparent = Boolean((await sharp(source).metadata()).hasAlpha);
          expect(image.fallback).toBe(format === 'png' || format === 'gif' || transparent ? 'png' : 'jpeg');
          const byFormat = new Map<string, number[]>();
          for (const variant of image.variants) {
            expect(variant.width).toBeLessThanOrEqual(width);
            expect(variant.path).toMatch(/^assets\/photo-\d+w-[0-9a-f]{10}\.(avif|webp|jpg|png)$/);
            // The name changes with the bytes: it is their hash.
            const metadata = await sharp(variant.contents).metadata();
            expect(metadata.width).toBe(variant.width);
            expect(metadata.format === 'heif' ? 'avif' : metadata.format).toBe(variant.format);
            byFormat.set(variant.format, [...(byFormat.get(variant.format) ?? []), variant.width]);
          }
          expect([...byFormat.keys()].sort()).toEqual(['avif', image.fallback, 'webp'].sort());
          for (const widths of byFormat.values()) expect(widths).toEqual(variantWidths(width, settings.widths));
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);

  it('refuses damaged or unsupported files with a clear error naming the file, never a crash', async () => {
    const png = await makeImage(64, 64, 'png');
    const jpeg = await makeImage(64, 64, 'jpeg');
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['truncated PNG', png.subarray(0, Math.floor(png.length / 2)), /damaged or cut off|cannot be read/],
      ['truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), /damaged or cut off|cannot be read/],
      ['text named .png', Buffer.from('this is not an image\n'), /unsupported image format/],
      ['empty file', Buffer.alloc(0), /cannot be read/],
      [
        'SVG in raster clothing',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'),
        /not a web image format/,
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const error = await processImage(bytes, 'content/news/x/bad.png', { settings }).catch(
        (caught: unknown) => caught,
      );
      expect(error, what).toBeInstanceOf(SsgError);
      expect((error as SsgError).code, what).toBe('ImageUnreadable');
      expect((error as SsgError).file).toBe('content/news/x/bad.png');
      expect((error as SsgError).message, what).toMatch(message);
    }
  }, 30_000);

  it('refuses huge dimensions from the header alone, before decoding (no hang, no memory blow-up)', async () => {
    const error = await processImage(await pngClaiming(100_000, 100_000), 'huge.png', { settings }).catch(
      (caught: unknown) => caught,
    );
    expect((error as SsgError).code).toBe('ImageTooLarge');
    expect((error as SsgError).message).toMatch(/100000×100000/);
  });

  it('never throws anything but an SsgError for random bytes or mutated images', async () => {
    const png = await makeImage(24, 24, 'png');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
          fc.tuple(fc.integer({ min: 0, max: png.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, value]) => {
            const copy = Buffer.from(png);
            copy[at] = value;
            return copy;
          }),
          fc.integer({ min: 0, max: png.length - 1 }).map((length) => png.subarray(0, length)),
        ),
        async (bytes) => {
          const result = await processImage(bytes, 'fuzz.png', { settings }).catch((caught: unknown) => caught);
          if (result instanceof Error) {
            expect(result).toBeInstanceOf(SsgError);
            expect((result as SsgError).file).toBe('fuzz.png');
          } else {
            expect((result as { variants: unknown[] }).variants.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('image cache', () => {
  it('reuses an entry for the same bytes and settings, encodes again for new settings, and survives a damaged entry', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'ssg-images-'));
    temporary.push(cacheDir);
    const bytes = await makeImage(40, 30, 'jpeg');
    const first = openImageCache({ cacheDir, settings, assetsDir: 'assets' });
    const made = await first.process(bytes, 'a.jpg');
    expect(first.counts).toEqual({ cached: 0, processed: 1 });

    const second = openImageCache({ cacheDir, settings, assetsDir: 'assets' });
    const reused = await second.process(bytes, 'a.jpg');
    expect(second.counts).toEqual({ cached: 1, processed: 0 });
    expect(reused.variants.map((variant) => variant.path)).toEqual(made.variants.map((variant) => variant.path));

    const other = openImageCache({ cacheDir, settings: { ...settings, widths: [8, 16] }, assetsDir: 'assets' });
    await other.process(bytes, 'a.jpg');
    expect(other.counts).toEqual({ cached: 0, processed: 1 });

    // A damaged entry (one byte changed) is made again, not shipped.
    const dir = imageCacheDir(cacheDir);
    for (const name of readdirSync(dir))
      writeFileSync(path.join(dir, name), 'ssg-cache/1 3 ' + '0'.repeat(64) + '\nabc');
    const third = openImageCache({ cacheDir, settings, assetsDir: 'assets' });
    const remade = await third.process(bytes, 'a.jpg');
    expect(third.counts).toEqual({ cached: 0, processed: 1 });
    expect(remade.variants.map((variant) => variant.path)).toEqual(made.variants.map((variant) => variant.path));
  }, 30_000);
});

/** A syntax tree node as the Markdown processor writes it out. */
const toHtml = (node: ReturnType<typeof pictureElement>) =>
  unified()
    .use(rehypeStringify)
    .stringify({ type: 'root', children: [node] });

describe('pictureElement', () => {
  it('offers AVIF then WebP, with srcset, sizes, width and height, lazy unless eager, alt escaped', async () => {
    const image = await processImage(await makeImage(40, 20, 'png'), 'chart.png', { settings });
    const picture = pictureOf(image);
    const lazy = toHtml(pictureElement(picture, { alt: 'A "quoted" <chart> & more', eager: false, sizes: '100vw' }));
    expect(lazy).toMatch(
      /^<picture><source type="image\/avif" srcset="[^"]+ 16w, [^"]+ 32w, [^"]+ 40w" sizes="100vw"><source type="image\/webp"/,
    );
    expect(lazy).toContain('width="40" height="20"');
    expect(lazy).toContain('alt="A &#x22;quoted&#x22; <chart> &#x26; more"');
    expect(lazy).toContain('loading="lazy" decoding="async"');
    const eager = toHtml(pictureElement(picture, { alt: 'x', eager: true, sizes: '100vw' }));
    expect(eager).not.toContain('loading=');
    expect(eager).toContain('decoding="async"');
    expect(eager).toMatch(/<img src="\/assets\/chart-40w-[0-9a-f]{10}\.png"/);
  });
});

describe("the image processor's versions (part of the image cache's keys)", () => {
  it("name sharp and its libvips binary package, read from their package files without loading sharp's native library", async () => {
    const { execFileSync } = await import('node:child_process');
    const script = [
      "const { sharpVersion } = await import('./src/images/process.ts');",
      'const version = sharpVersion();',
      "const loaded = (await import('node:fs')).readFileSync('/proc/self/maps', 'utf8').includes('sharp-');",
      'console.log(JSON.stringify({ version, loaded }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..'),
      encoding: 'utf8',
    });
    const { version, loaded } = JSON.parse(out.trim().split('\n').at(-1)!) as { version: string; loaded: boolean };
    expect(version).toBe(
      `${sharp.versions.sharp}/@img/sharp-libvips-${process.platform}-${process.arch}@${(await import(`@img/sharp-libvips-${process.platform}-${process.arch}/package`, { with: { type: 'json' } })).default.version}`,
    );
    expect(loaded).toBe(false);
  }, 30_000);
});
