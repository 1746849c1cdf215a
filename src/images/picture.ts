import type { ImageFormat, ProcessedImage } from './process.ts';

/**
 * What a `<picture>` needs, without the encoded bytes: plain data a page component can be handed
 * (the site's own picture component renders the same markup from it).
 */
export interface PictureData {
  width: number;
  height: number;
  /** `<source>`s in order of preference: AVIF, then WebP. */
  sources: Array<{ type: string; srcset: string }>;
  /** The fallback `<img>`: its largest variant and the srcset of all of them. */
  src: string;
  srcset: string;
}

const MIME: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' };

export function pictureOf(image: ProcessedImage): PictureData {
  const srcsetOf = (format: ImageFormat) =>
    image.variants
      .filter((variant) => variant.format === format)
      .sort((a, b) => a.width - b.width)
      .map((variant) => `/${variant.path} ${variant.width}w`)
      .join(', ');
  const fallback = image.variants.filter((variant) => variant.format === image.fallback).sort((a, b) => b.width - a.width)[0]!;
  const sources = (['avif', 'webp'] as const)
    .filter((format) => format !== image.fallback)
    .map((format) => ({ type: MIME[format], srcset: srcsetOf(format) }));
  return { width: image.width, height: image.height, sources, src: `/${fallback.path}`, srcset: srcsetOf(image.fallback) };
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface PictureOptions {
  alt: string;
  /** The first image of a page loads at once; the others when they come near the viewport. */
  eager: boolean;
  /** How wide the image is shown, for the browser to pick from the srcset. */
  sizes: string;
  title?: string;
}

/** The `<picture>` markup of a processed image (for HTML that is not rendered by React). */
export function pictureHtml(picture: PictureData, options: PictureOptions): string {
  const sizes = escapeAttribute(options.sizes);
  const sources = picture.sources.map((source) => `<source type="${source.type}" srcset="${escapeAttribute(source.srcset)}" sizes="${sizes}">`);
  const attributes = [
    `src="${escapeAttribute(picture.src)}"`,
    `srcset="${escapeAttribute(picture.srcset)}"`,
    `sizes="${sizes}"`,
    `width="${picture.width}"`,
    `height="${picture.height}"`,
    `alt="${escapeAttribute(options.alt)}"`,
    options.title === undefined ? '' : `title="${escapeAttribute(options.title)}"`,
    options.eager ? '' : 'loading="lazy"',
    'decoding="async"',
  ].filter(Boolean);
  return `<picture>${sources.join('')}<img ${attributes.join(' ')}></picture>`;
}

/** A shown-as-is image (SVG) with its size, when known, so nothing shifts as it loads. */
export function plainImageHtml(src: string, size: { width?: number; height?: number }, options: Omit<PictureOptions, 'sizes'>): string {
  const attributes = [
    `src="${escapeAttribute(src)}"`,
    size.width && size.height ? `width="${size.width}" height="${size.height}"` : '',
    `alt="${escapeAttribute(options.alt)}"`,
    options.title === undefined ? '' : `title="${escapeAttribute(options.title)}"`,
    options.eager ? '' : 'loading="lazy"',
    'decoding="async"',
  ].filter(Boolean);
  return `<img ${attributes.join(' ')}>`;
}
