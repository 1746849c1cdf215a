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

const MIME: Record<ImageFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export function pictureOf(image: ProcessedImage): PictureData {
  const srcsetOf = (format: ImageFormat) =>
    image.variants
      .filter((variant) => variant.format === format)
      .sort((a, b) => a.width - b.width)
      .map((variant) => `/${variant.path} ${variant.width}w`)
      .join(', ');
  const fallback = image.variants
    .filter((variant) => variant.format === image.fallback)
    .sort((a, b) => b.width - a.width)[0]!;
  const sources = (['avif', 'webp'] as const)
    .filter((format) => format !== image.fallback)
    .map((format) => ({ type: MIME[format], srcset: srcsetOf(format) }));
  return {
    width: image.width,
    height: image.height,
    sources,
    src: `/${fallback.path}`,
    srcset: srcsetOf(image.fallback),
  };
}

export interface PictureOptions {
  alt: string;
  /** The first image of a page loads at once; the others when they come near the viewport. */
  eager: boolean;
  /** How wide the image is shown, for the browser to pick from the srcset. */
  sizes: string;
  title?: string;
  /** The size the author asked for (`<img width="100">`): either side, or both. */
  shownSize?: { width?: number; height?: number };
  /** Where the author floated it (`align="right"`), as the class `align-left`, `align-right` or `align-center`. */
  align?: ImageAlign;
}

export type ImageAlign = 'left' | 'right' | 'center';

/**
 * The width and height to write: the author's where given (the other side kept in proportion),
 * else the file's own. Without both, none (an SVG of unknown size).
 */
export function shownSize(
  intrinsic: { width?: number; height?: number },
  asked: { width?: number; height?: number } = {},
): { width?: number; height?: number } {
  const { width, height } = intrinsic;
  if (asked.width && asked.height) return { width: asked.width, height: asked.height };
  if (!width || !height) return asked.width || asked.height ? { ...asked } : {};
  if (asked.width) return { width: asked.width, height: Math.max(1, Math.round((asked.width * height) / width)) };
  if (asked.height) return { width: Math.max(1, Math.round((asked.height * width) / height)), height: asked.height };
  return { width, height };
}

const alignClass = (align: ImageAlign | undefined): Properties => (align ? { className: [`align-${align}`] } : {});

/** The `<picture>` of a processed image as a syntax tree node, for the Markdown processor. */
export function pictureElement(picture: PictureData, options: PictureOptions): Element {
  const sources: Element[] = picture.sources.map((source) => ({
    type: 'element',
    tagName: 'source',
    properties: { type: source.type, srcSet: source.srcset, sizes: options.sizes },
    children: [],
  }));
  const img = imageElement(picture.src, picture, options, { srcSet: picture.srcset, sizes: options.sizes });
  return { type: 'element', tagName: 'picture', properties: alignClass(options.align), children: [...sources, img] };
}

/** A shown-as-is image (SVG) as a syntax tree node, with its size when known. */
export function plainImageElement(
  src: string,
  size: { width?: number; height?: number },
  options: Omit<PictureOptions, 'sizes'>,
): Element {
  return imageElement(src, size, options, alignClass(options.align));
}

function imageElement(
  src: string,
  size: { width?: number; height?: number },
  options: Omit<PictureOptions, 'sizes'>,
  extra: Properties = {},
): Element {
  const properties: Properties = { src, ...extra };
  const shown = shownSize(size, options.shownSize);
  if (shown.width) properties.width = shown.width;
  if (shown.height) properties.height = shown.height;
  properties.alt = options.alt;
  if (options.title !== undefined) properties.title = options.title;
  if (!options.eager) properties.loading = 'lazy';
  properties.decoding = 'async';
  return { type: 'element', tagName: 'img', properties, children: [] };
}
