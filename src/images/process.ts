import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Metadata, OutputInfo } from 'sharp';
import { catalogueError, type ErrorDetails, type SsgError } from '../errors/errors.ts';
import { generatorRoot } from '../project.ts';

/** The formats a processed image is offered in; the last one is the fallback `<img>` itself. */
export type ImageFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export interface ImageSettings {
  /** Widths offered in the srcset, in pixels; those above the original are left out (never upscaled). */
  widths: readonly number[];
  /** Images with more pixels than this are refused before they are decoded. */
  maxPixels: number;
  quality: { avif: number; webp: number; jpeg: number };
  /** AVIF encoder effort (0–9): higher is smaller and much slower. */
  avifEffort: number;
  /** A single image taking longer than this is refused rather than holding the build. */
  timeoutSeconds: number;
}

export const DEFAULT_IMAGE_SETTINGS: ImageSettings = {
  widths: [400, 800, 1200, 1600],
  maxPixels: 40_000_000,
  quality: { avif: 55, webp: 78, jpeg: 80 },
  avifEffort: 3,
  timeoutSeconds: 60,
};

/** One encoded file of an image: a format at a width. */
interface ImageVariant {
  format: ImageFormat;
  width: number;
  height: number;
  /** Output path under the assets folder, with a hash of the contents in its name. */
  path: string;
  contents: Uint8Array;
}

/** What a page needs to show a processed image: its size, and every variant by format. */
export interface ProcessedImage {
  width: number;
  height: number;
  /** The format of the `<img>` fallback: the original's (PNG for transparency-capable, else JPEG). */
  fallback: ImageFormat;
  variants: ImageVariant[];
}

/** The name an image's output files start with: its file's name, in lower-case letters, digits and dashes. */
export function outputBaseName(file: string): string {
  return (
    path
      .basename(file, path.extname(file))
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'image'
  );
}

let sharpLoaded: Promise<typeof import('sharp').default> | undefined;
/**
 * sharp, loaded when an image is first decoded: a build whose images all come from the cache never
 * loads it (its native library is slow to load at every build's start).
 */
export const loadSharp = () => (sharpLoaded ??= import('sharp').then((module) => module.default));

let version: string | undefined;
/**
 * What processes images, for the cache's keys: sharp's version and that of the libvips binary
 * package it runs with, read from their package files (no need to load sharp for that). A sharp
 * built against a libvips installed on the system has no such package: then it is loaded, and
 * says its versions itself.
 */
export function sharpVersion(): string {
  return (version ??= installedSharpVersion());
}

/**
 * The versions as the build worked them out (sharpVersion), given to a helper process: one
 * compiled into the site's cache folder (running from the TypeScript sources) cannot find sharp's
 * package files from where it runs.
 */
export function useSharpVersion(told: string): void {
  version ??= told;
}

function installedSharpVersion(): string {
  const require = createRequire(path.join(generatorRoot, 'package.json'));
  const entry = require.resolve('sharp');
  const root = path.resolve(path.dirname(entry), '..');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
    optionalDependencies?: Record<string, string>;
  };
  const lookup = createRequire(entry).resolve.paths('@img/sharp') ?? [];
  const binaries = Object.keys(manifest.optionalDependencies ?? {})
    .filter((name) => name.startsWith('@img/sharp-libvips-'))
    .flatMap((name) => {
      const found = lookup.map((folder) => path.join(folder, name, 'package.json')).find((file) => existsSync(file));
      return found ? [`${name}@${(JSON.parse(readFileSync(found, 'utf8')) as { version: string }).version}`] : [];
    });
  if (binaries.length > 0) return `${manifest.version}/${binaries.join(',')}`;
  const loaded = require('sharp') as typeof import('sharp').default;
  return `${loaded.versions.sharp}/vips ${loaded.versions.vips}`;
}

/** Raster files by extension: what the build processes. SVG is shown as it is. */
const RASTER_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif', '.tif', '.tiff']);

export function isRasterPath(file: string): boolean {
  return RASTER_EXTENSIONS.has(path.extname(file).toLowerCase());
}

/** The widths to encode: the configured ones below the original, and the original (capped at the largest). */
export function variantWidths(original: number, widths: readonly number[]): number[] {
  const largest = Math.max(...widths);
  const chosen = widths.filter((width) => width < original);
  chosen.push(Math.min(original, largest));
  return [...new Set(chosen)].sort((a, b) => a - b);
}

function unreadable(file: string, why: ErrorDetails<'ImageUnreadable'>, cause?: unknown): SsgError {
  return catalogueError('ImageUnreadable', why, { file }, { cause });
}

/** The original's width, height and fallback format, refusing anything sharp cannot decode or too large to. */
async function inspect(bytes: Uint8Array, file: string, settings: ImageSettings) {
  let metadata: Metadata;
  try {
    metadata = await (await loadSharp())(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw unreadable(file, ['notDecoded', (error as Error).message], error);
  }
  const { width, height, format, hasAlpha } = metadata;
  if (!width || !height) throw unreadable(file, ['noSize']);
  if (width * height > settings.maxPixels) {
    throw catalogueError('ImageTooLarge', [width, height, settings.maxPixels], { file });
  }
  if (!['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'heif'].includes(format ?? ''))
    throw unreadable(file, ['notWebFormat', format]);
  // EXIF orientation swaps the shown width and height.
  const rotated = (metadata.orientation ?? 1) >= 5;
  const fallback: ImageFormat = format === 'png' || format === 'gif' || hasAlpha ? 'png' : 'jpeg';
  return { width: rotated ? height : width, height: rotated ? width : height, fallback };
}

async function encode(
  bytes: Uint8Array,
  format: ImageFormat,
  width: number,
  settings: ImageSettings,
): Promise<{ data: Buffer; info: OutputInfo }> {
  // failOn 'truncated': a cut-off file is an error, not an image with a grey bottom half.
  const sharp = await loadSharp();
  let pipeline = sharp(bytes, { failOn: 'truncated', limitInputPixels: settings.maxPixels })
    .timeout({ seconds: settings.timeoutSeconds })
    .autoOrient()
    .resize({ width, withoutEnlargement: true });
  if (format === 'avif') pipeline = pipeline.avif({ quality: settings.quality.avif, effort: settings.avifEffort });
  else if (format === 'webp') pipeline = pipeline.webp({ quality: settings.quality.webp });
  else if (format === 'jpeg') pipeline = pipeline.jpeg({ quality: settings.quality.jpeg, mozjpeg: true });
  else pipeline = pipeline.png({ compressionLevel: 9, palette: false });
  return pipeline.toBuffer({ resolveWithObject: true });
}

/** `chart-800w-3f2a9c01bd.avif`: readable, and a new name whenever the bytes change. */
function variantPath(
  file: string,
  assetsDir: string,
  width: number,
  format: ImageFormat,
  contents: Uint8Array,
): string {
  const base = outputBaseName(file);
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 10);
  const extension = format === 'jpeg' ? 'jpg' : format;
  return `${assetsDir}/${base}-${width}w-${hash}.${extension}`;
}

/**
 * Encodes an image in AVIF, WebP and its fallback format at each width of the srcset. `file`
 * names the source in errors and gives the output names their readable part.
 */
export async function processImage(
  bytes: Uint8Array,
  file: string,
  options: { settings?: ImageSettings; assetsDir?: string } = {},
): Promise<ProcessedImage> {
  const settings = options.settings ?? DEFAULT_IMAGE_SETTINGS;
  const original = await inspect(bytes, file, settings);
  const variants: ImageVariant[] = [];
  for (const format of ['avif', 'webp', original.fallback] as const) {
    for (const width of variantWidths(original.width, settings.widths)) {
      let encoded: Awaited<ReturnType<typeof encode>>;
      try {
        encoded = await encode(bytes, format, width, settings);
      } catch (error) {
        throw unreadable(file, ['notEncoded', (error as Error).message], error);
      }
      const contents = new Uint8Array(encoded.data.buffer, encoded.data.byteOffset, encoded.data.byteLength);
      const assetPath = variantPath(file, options.assetsDir ?? 'assets', encoded.info.width, format, contents);
      variants.push({ format, width: encoded.info.width, height: encoded.info.height, path: assetPath, contents });
    }
  }
  return { width: original.width, height: original.height, fallback: original.fallback, variants };
}
