import type { PictureData } from 'ssg';

export interface PictureProps {
  /** The image's path in site/public, shown as it is when it was not processed (SVG). */
  src: string;
  /** The processed image (raster files the site lists in `images`), from `data.images[src]`. */
  picture?: PictureData;
  alt: string;
  /** How wide the image is shown, for the browser to pick from the srcset. */
  sizes: string;
  /** Size of an unprocessed image, so nothing shifts while it loads. */
  width: number;
  height: number;
  /** The first image of a page loads at once; the others when they come near the viewport. */
  eager?: boolean;
}

/**
 * An image of the site: a raster one as `<picture>` with AVIF and WebP sources, a srcset of its
 * processed widths and its own size; anything else (SVG) as a plain `<img>`.
 */
export function Picture({ src, picture, alt, sizes, width, height, eager = false }: PictureProps) {
  const loading = eager ? undefined : 'lazy';
  if (!picture) return <img src={src} alt={alt} width={width} height={height} loading={loading} decoding="async" />;
  return (
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        src={picture.src}
        srcSet={picture.srcset}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        alt={alt}
        loading={loading}
        decoding="async"
      />
    </picture>
  );
}
