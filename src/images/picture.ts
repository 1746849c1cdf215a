import type { Element, Properties } from 'hast';
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

export interface PictureOptions {
  alt: string;
  /** The first image of a page loads at once; the others when they come near the viewport. */
  eager: boolean;
  /** How wide the image is shown, for the browser to pick from the srcset. */
  sizes: string;
  title?: string;
}

/** The `<picture>` of a processed image as a syntax tree node, for the Markdown processor. */
export function pictureElement(picture: PictureData, options: PictureOptions): Element {
  const sources: Element[] = picture.sources.map((source) => ({
    type: 'element',
    tagName: 'source',
    properties: { type: source.type, srcSet: source.srcset, sizes: options.sizes },
    children: [],
  }));
  const img = imageElement(picture.src, picture, options, { srcSet: picture.srcset, sizes: options.sizes });
  return { type: 'element', tagName: 'picture', properties: {}, children: [...sources, img] };
}

/** A shown-as-is image (SVG) as a syntax tree node, with its size when known. */
export function plainImageElement(src: string, size: { width?: number; height?: number }, options: Omit<PictureOptions, 'sizes'>): Element {
  return imageElement(src, size, options);
}

function imageElement(src: string, size: { width?: number; height?: number }, options: Omit<PictureOptions, 'sizes'>, extra: Properties = {}): Element {
  const properties: Properties = { src, ...extra };
  if (size.width && size.height) Object.assign(properties, { width: size.width, height: size.height });
  properties.alt = options.alt;
  if (options.title !== undefined) properties.title = options.title;
  if (!options.eager) properties.loading = 'lazy';
  properties.decoding = 'async';
  return { type: 'element', tagName: 'img', properties, children: [] };
}
