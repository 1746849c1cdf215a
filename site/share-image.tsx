// The share card of each article (og:image): its title, date and the brand, drawn at build time in
// the Inter shipped in site/share/fonts. The background, logo and brand are the same on every card:
// drawn once per brand with satori (layout to SVG), resvg (SVG to pixels) and sharp. Each card then
// only shapes its title and date with HarfBuzz and draws them over it from glyphs rasterised once
// (share/text.ts), and compresses only the rows it drew on (share/canvas.ts): about 5 ms of CPU a
// card (3-4 on the main thread, the compression on libuv's threads), where satori, resvg and sharp
// for every card took about 27 ms.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Article, GeneratedFile, HeadImage } from 'ssg';
import { canvasOf, pngWith, type Canvas } from './share/canvas.ts';
import { drawText, layoutText, loadTypeface, type Typeface } from './share/text.ts';

export const SHARE_CARD = { width: 1200, height: 630 } as const;
/** Longer titles are cut at a word and end in an ellipsis; the card shows at most three lines. */
const TITLE_LIMIT = 140;

/** The card of an article: drawn (PNG), or made from the image its front matter names (JPEG). */
export const shareImagePath = (article: Pick<Article, 'slug' | 'image'>) => `/news/${article.slug}.${article.image ? 'jpg' : 'png'}`;

/** The card of an article as the head of its page describes it. */
export function shareImageOf(article: Article, brand: string): HeadImage {
  const alt = article.image ? article.image.alt : `${article.title}, ${cardDate(article.date)}, ${brand}`;
  return { path: shareImagePath(article), ...SHARE_CARD, alt };
}

/**
 * An article's own image (front matter `image`) as its card: cropped to the card's size around
 * its middle, as JPEG. An image that cannot be read fails the build, naming the article.
 */
async function cardFromImage(article: Article, root: string): Promise<Uint8Array> {
  const image = article.image!;
  const file = path.join(root, image.file);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) {
    throw new Error(`its image ${image.file} is not there; check the path of image in its front matter (from the article's folder, or from site/public when it starts with /).`);
  }
  const real = path.relative(realpathSync(root), realpathSync(file));
  if (real.startsWith('..') || path.isAbsolute(real)) {
    throw new Error(`its image ${image.file} is a link to a file outside the project; copy the image into the project.`);
  }
  // By its bytes, not its name: an SVG (which may pull in other files) or a TIFF named .png is refused.
  const format = await sharp(file, { limitInputPixels: 100_000_000 })
    .metadata()
    .then((found) => found.format, () => undefined);
  if (!format || !CARD_SOURCE_FORMATS.has(format)) {
    throw new Error(`its image ${image.file} is ${format ? `in ${format.toUpperCase()} format` : 'no image'} whatever its name says; give a PNG, JPEG, WebP, AVIF or GIF file.`);
  }
  try {
    return await sharp(file, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize(SHARE_CARD.width, SHARE_CARD.height, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch (error) {
    throw new Error(`its image ${image.file} cannot be read as an image (${(error as Error).message}); give a PNG, JPEG, WebP, AVIF or GIF file that opens in an image viewer.`, { cause: error });
  }
}

/** The formats a card is made from, as sharp names them by the file's bytes. */
const CARD_SOURCE_FORMATS = new Set(['png', 'jpeg', 'webp', 'heif', 'gif']);

/**
 * What an image file holds, for the cache key of the card made from it: a hash of its bytes, so
 * a changed file makes the card anew (whatever its times say) and a fresh clone reuses the cache.
 */
function fileStamp(root: string, file: string): string {
  try {
    return `${file}:${createHash('sha256').update(readFileSync(path.join(root, file))).digest('hex')}`;
  } catch {
    return `${file}:unreadable`;
  }
}

/** `1 January 2025`, the same on every machine (UTC, British English); the date as written when unreadable. */
export function cardDate(date: string): string {
  const time = Date.parse(date);
  return Number.isNaN(time) ? date : CARD_DATE.format(time);
}

const CARD_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The title cut at a word boundary before `limit` characters, with an ellipsis when cut. */
export function cardTitle(title: string, limit = TITLE_LIMIT): string {
  const text = title.replace(/\s+/g, ' ').trim();
  if ([...text].length <= limit) return text;
  const cut = [...text].slice(0, limit - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > limit / 2 ? atWord : cut).trimEnd()}…`;
}

// Read and kept once per site folder: satori keeps what it parsed of a font set by the set's
// identity, so handing it the same array makes every card after the first skip the font parsing.
const fontsByRoot = new Map<string, ReturnType<typeof readFonts>>();
const loadFonts = (root: string) => fontsByRoot.get(root) ?? fontsByRoot.set(root, readFonts(root)).get(root)!;

const FONT_FILES = { 400: 'site/share/fonts/inter-latin-400-normal.woff', 700: 'site/share/fonts/inter-latin-700-normal.woff' } as const;

function readFonts(root: string) {
  const file = (weight: 400 | 700) => readFileSync(path.join(root, FONT_FILES[weight]));
  return [
    { name: 'Inter', data: file(400), weight: 400 as const, style: 'normal' as const },
    { name: 'Inter', data: file(700), weight: 700 as const, style: 'normal' as const },
  ];
}

const PADDING = { x: 88, y: 72 } as const;
const BRAND_ROW = 64;
/** Where the title and date go: the card's inner box below the brand row. */
const TEXT_BOX = {
  left: PADDING.x,
  top: PADDING.y + BRAND_ROW,
  width: SHARE_CARD.width - 2 * PADDING.x,
  height: SHARE_CARD.height - 2 * PADDING.y - BRAND_ROW,
} as const;

/** What every card shares: the gradient, the logo and the brand. */
function Background({ brand }: { brand: string }) {
  return (
    <div
      style={{
        width: SHARE_CARD.width, height: SHARE_CARD.height, boxSizing: 'border-box', display: 'flex',
        padding: `${PADDING.y}px ${PADDING.x}px`, color: '#ffffff', fontFamily: 'Inter',
        backgroundImage: 'linear-gradient(135deg, #0b1f33 0%, #102c45 60%, #0f6d62 100%)',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', height: BRAND_ROW, fontSize: 36, fontWeight: 700 }}>
        <svg width="64" height="64" viewBox="0 0 32 32" style={{ marginRight: 22 }}>
          <rect width="32" height="32" rx="8" fill="#35c2ad" />
          <path d="M9 10.5 16 22l7-11.5" fill="none" stroke="#04201c" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {brand}
      </div>
    </div>
  );
}

// The title, 60 px bold, at most three lines; the date, 30 px, at the bottom of the text box.
const TITLE = { size: 60, lineHeight: 69, width: TEXT_BOX.width, maxLines: 3 } as const;
const DATE = { size: 30, lineHeight: 36, width: TEXT_BOX.width, maxLines: 1 } as const;
const WHITE = [0xff, 0xff, 0xff] as const;
const DATE_COLOR = [0xb9, 0xd3, 0xe2] as const;

// Per site folder: the typefaces, and the background (gradient, logo, brand) drawn once per brand.
const typefacesByRoot = new Map<string, { regular: Typeface; bold: Typeface }>();
const typefaces = (root: string) =>
  typefacesByRoot.get(root) ??
  typefacesByRoot.set(root, { regular: loadTypeface(loadFonts(root)[0]!.data, FONT_FILES[400]), bold: loadTypeface(loadFonts(root)[1]!.data, FONT_FILES[700]) }).get(root)!;

// Loaded when a background is first drawn: a build whose cards all come from the cache does not
// pay for loading satori (about 0.15 s).
let layoutLibraries: Promise<{ satori: typeof import('satori').default; renderAsync: typeof import('@resvg/resvg-js').renderAsync }> | undefined;
const loadLayoutLibraries = () =>
  (layoutLibraries ??= Promise.all([import('satori'), import('@resvg/resvg-js')]).then(([satori, resvg]) => ({ satori: satori.default, renderAsync: resvg.renderAsync })));

const backgrounds = new Map<string, Promise<Canvas>>();
function background(brand: string, root: string): Promise<Canvas> {
  const key = JSON.stringify([brand, root]);
  let drawn = backgrounds.get(key);
  if (!drawn) {
    drawn = loadLayoutLibraries()
      .then(({ satori, renderAsync }) => satori(<Background brand={brand} />, { ...SHARE_CARD, fonts: loadFonts(root) }).then((svg) => renderAsync(svg)))
      .then((image) => sharp(image.asPng()).removeAlpha().raw().toBuffer())
      .then((pixels) => canvasOf(pixels, SHARE_CARD.width, SHARE_CARD.height));
    drawn.catch(() => backgrounds.delete(key)); // a failure is reported by the card; the next card tries again
    backgrounds.set(key, drawn);
  }
  return drawn;
}

/**
 * The PNG of an article's card: the title centred between the brand row and the date (as a flex
 * column would space them), both drawn over the background.
 */
export async function drawShareImage(article: Pick<Article, 'title' | 'date'>, brand: string, root: string): Promise<Uint8Array> {
  const { regular, bold } = typefaces(root); // first: a damaged font file is named here
  const canvas = await background(brand, root);
  const title = layoutText(bold, cardTitle(article.title), TITLE);
  const date = layoutText(regular, `News · ${cardDate(article.date)}`, DATE);
  const titleTop = TEXT_BOX.top + Math.round((TEXT_BOX.height - title.lines.length * TITLE.lineHeight - DATE.lineHeight) / 2);
  return pngWith(canvas, (card) => {
    drawText(card, title, TEXT_BOX.left, titleTop, WHITE);
    drawText(card, date, TEXT_BOX.left, TEXT_BOX.top + TEXT_BOX.height - DATE.lineHeight, DATE_COLOR);
  });
}

// The fonts are drawn into every card: new font files draw every card again.
const fontStamps = new Map<string, string>();
const fontStamp = (root: string) =>
  fontStamps.get(root) ?? fontStamps.set(root, createHash('sha256').update(Buffer.concat(loadFonts(root).map((font) => font.data))).digest('hex')).get(root)!;

/** One card per article, redrawn only when its title, date, the brand or the fonts change (or the site code). */
export function shareImages(articles: readonly Article[], brand: string, root: string): GeneratedFile[] {
  const fonts = fontStamp(root);
  return articles.map((article) =>
    article.image
      ? { path: shareImagePath(article), key: JSON.stringify(['image', fileStamp(root, article.image.file)]), render: () => cardFromImage(article, root), source: article.file }
      : { path: shareImagePath(article), key: JSON.stringify([article.title, article.date, brand, fonts]), render: () => drawShareImage(article, brand, root) },
  );
}
