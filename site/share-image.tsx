// The share card of each article (og:image): the components in share/card.tsx, laid out by satori
// and drawn by sharp (librsvg), in the build's helper processes beside the Markdown conversion: the
// backdrop once per process and brand, then each card's text over it; or, for an article with its
// own image (front matter `image`), that image cropped to the card's size as JPEG.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Article, Drawer, GeneratedFile, HeadImage } from 'ssg';
import { CARD_FONTS, CARD_SIZE, CardBackdrop, CardText, TEXT_AREA, type CardProps } from './share/card.tsx';
import { dayOf } from './dates.ts';
import { localePrefix, otherLocale } from './locales.ts';

export const SHARE_CARD = CARD_SIZE;
/** Longer titles are cut at a word and end in an ellipsis (the card shows at most three lines): bounds the layout's work. */
const TITLE_LIMIT = 140;

/**
 * The card of an article: drawn (PNG), or made from the image its front matter names (JPEG); a
 * translation's below its language's folder (`/de/news/<slug>.png`), beside its page.
 */
export const shareImagePath = (article: Pick<Article, 'slug' | 'image'> & { locale?: string }) =>
  `${localePrefix(article.locale)}/news/${article.slug}.${article.image ? 'jpg' : 'png'}`;

/** The card of an article as the head of its page describes it. */
export function shareImageOf(article: Article, brand: string): HeadImage {
  const alt = article.image
    ? article.image.alt
    : `${article.title}, ${cardDate(article.date, article.locale)}, ${brand}`;
  return { path: shareImagePath(article), ...SHARE_CARD, alt };
}

/**
 * An article's own image (front matter `image`) as its card: cropped to the card's size around
 * its middle, as JPEG. An image that cannot be read fails the build, naming the article.
 */
async function cardFromImage(image: { file: string }, root: string): Promise<Uint8Array> {
  const file = path.join(root, image.file);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) {
    throw new Error(
      `its image ${image.file} is not there; check the path of image in its front matter (from the article's folder, or from site/public when it starts with /).`,
    );
  }
  const real = path.relative(realpathSync(root), realpathSync(file));
  if (real.startsWith('..') || path.isAbsolute(real)) {
    throw new Error(
      `its image ${image.file} is a link to a file outside the project; copy the image into the project.`,
    );
  }
  // By its bytes, not its name: an SVG (which may pull in other files) or a TIFF named .png is refused.
  const sharp = await loadSharp();
  const format = await sharp(file, { limitInputPixels: 100_000_000 })
    .metadata()
    .then(
      (found) => found.format,
      () => undefined,
    );
  if (!format || !CARD_SOURCE_FORMATS.has(format)) {
    throw new Error(
      `its image ${image.file} is ${format ? `in ${format.toUpperCase()} format` : 'no image'} whatever its name says; give a PNG, JPEG, WebP, AVIF or GIF file.`,
    );
  }
  try {
    return await sharp(file, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize(SHARE_CARD.width, SHARE_CARD.height, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch (error) {
    throw new Error(
      `its image ${image.file} cannot be read as an image (${(error as Error).message}); give a PNG, JPEG, WebP, AVIF or GIF file that opens in an image viewer.`,
      { cause: error },
    );
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
    return `${file}:${createHash('sha256')
      .update(readFileSync(path.join(root, file)))
      .digest('hex')}`;
  } catch {
    return `${file}:unreadable`;
  }
}

/**
 * `1 January 2025` (`1. Januar 2025` on a German card), the same on every machine (UTC, British
 * English unless the article is in another language); the date as written when unreadable.
 */
export function cardDate(date: string, locale?: string): string {
  const time = Date.parse(dayOf(date));
  return Number.isNaN(time) ? date : cardDateFormat(otherLocale(locale) ?? 'en-GB').format(time);
}

const cardDateFormats = new Map<string, Intl.DateTimeFormat>();
const cardDateFormat = (locale: string) =>
  cardDateFormats.get(locale) ??
  cardDateFormats
    .set(locale, new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }))
    .get(locale)!;

/** The title cut at a word boundary before `limit` characters, with an ellipsis when cut. */
export function cardTitle(title: string, limit = TITLE_LIMIT): string {
  const text = title.replace(/\s+/g, ' ').trim();
  if ([...text].length <= limit) return text;
  const cut = [...text].slice(0, limit - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > limit / 2 ? atWord : cut).trimEnd()}…`;
}

// Read once per site folder and kept: satori keeps what it parsed of a font set by the set's
// identity, so handing it the same array makes every card after the first skip the font parsing.
const fontsByRoot = new Map<string, ReturnType<typeof readFonts>>();
const loadFonts = (root: string) => fontsByRoot.get(root) ?? fontsByRoot.set(root, readFonts(root)).get(root)!;

function readFonts(root: string) {
  return CARD_FONTS.map(({ file, ...font }) => ({
    ...font,
    data: readFileSync(path.join(root, 'site/share/fonts', file)),
  }));
}

// Loaded when a card is first drawn: a build whose cards all come from the cache does not pay for
// loading satori (about 0.15 s) or sharp (0.08 s), in the build's process or its helpers.
let satoriLoaded: Promise<typeof import('satori').default> | undefined;
const loadSatori = () => (satoriLoaded ??= import('satori').then((module) => module.default));
let sharpLoaded: Promise<typeof import('sharp').default> | undefined;
const loadSharp = () => (sharpLoaded ??= import('sharp').then((module) => module.default));

const BLEED = 8;

// The backdrop's pixels, by site folder and brand: drawn once per process, the same under every card.
const backdrops = new Map<string, Promise<{ data: Buffer; info: { width: number; height: number; channels: 3 } }>>();

function backdropOf(brand: string, root: string) {
  const key = JSON.stringify([root, brand]);
  let backdrop = backdrops.get(key);
  if (!backdrop) {
    backdrop = (async () => {
      const [satori, sharp] = await Promise.all([loadSatori(), loadSharp()]);
      const svg = await satori(<CardBackdrop brand={brand} />, { ...CARD_SIZE, fonts: loadFonts(root) });
      const { data } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, info: { ...CARD_SIZE, channels: 3 as const } };
    })();
    backdrops.set(key, backdrop);
    backdrop.catch(() => backdrops.delete(key));
  }
  return backdrop;
}

/** The PNG of an article's card: its text laid out to SVG by satori, drawn by sharp over the backdrop. */
export async function drawShareImage(card: CardProps, root: string): Promise<Uint8Array> {
  const fonts = loadFonts(root); // first: a missing font file is named here
  const satori = await loadSatori();
  // Drawn with a margin around the text area: a glyph's edge may overhang its box by a pixel or two.
  const layer = (
    <div style={{ display: 'flex', padding: BLEED }}>
      <CardText title={cardTitle(card.title)} date={card.date} />
    </div>
  );
  const text = await satori(layer, { width: TEXT_AREA.width + 2 * BLEED, height: TEXT_AREA.height + 2 * BLEED, fonts });
  return overBackdrop(card.brand, root, {
    input: Buffer.from(text),
    left: TEXT_AREA.left - BLEED,
    top: TEXT_AREA.top - BLEED,
  });
}

/** A layer (an SVG, or raw pixels) drawn over the card's backdrop at its place, as the card's PNG. */
export async function overBackdrop(
  brand: string,
  root: string,
  layer: import('sharp').OverlayOptions,
): Promise<Buffer> {
  const [sharp, backdrop] = await Promise.all([loadSharp(), backdropOf(brand, root)]);
  return sharp(backdrop.data, { raw: backdrop.info })
    .composite([layer])
    .removeAlpha() // after the composite, which adds one
    .png()
    .toBuffer();
}

/** The site's drawers, run in the build's helper processes: each draws one card from plain data. */
export const shareDrawers: Record<string, Drawer> = {
  shareCard: (card: CardProps, { root }) => drawShareImage(card, root),
  shareCardFromImage: (image: { file: string }, { root }) => cardFromImage(image, root),
};

// The fonts are drawn into every card: new font files draw every card again.
const fontStamps = new Map<string, string>();
const fontStamp = (root: string) =>
  fontStamps.get(root) ??
  fontStamps
    .set(
      root,
      createHash('sha256')
        .update(Buffer.concat(loadFonts(root).map((font) => font.data)))
        .digest('hex'),
    )
    .get(root)!;

/**
 * Letters of the scripts the card's fonts have (Latin, Greek, Cyrillic), and what every script
 * shares (digits, punctuation, combining marks): a title with anything else (Chinese, Arabic,
 * emoji) shows gaps on its card.
 */
const DRAWN = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]*$/u;
const NOT_DRAWN =
  /[^\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]|\p{Extended_Pictographic}/gu;

/** The characters of a title the card's fonts cannot draw, once each: none for most titles. */
export function undrawnCharacters(title: string): string[] {
  if (DRAWN.test(title) && !/\p{Extended_Pictographic}/u.test(title)) return [];
  return [...new Set(title.match(NOT_DRAWN) ?? [])];
}

/** One card per article, redrawn only when its title, date, the brand or the fonts change (or the modules that draw it). */
export function shareImages(
  articles: readonly Article[],
  brand: string,
  root: string,
  warn: (message: string) => void = () => {},
): GeneratedFile[] {
  const fonts = fontStamp(root);
  return articles.map((article): GeneratedFile => {
    if (article.image) {
      const { file } = article.image;
      return {
        path: shareImagePath(article),
        key: JSON.stringify(['image', fileStamp(root, file)]),
        draw: { drawer: 'shareCardFromImage', input: { file } },
        source: article.file,
      };
    }
    const missing = undrawnCharacters(article.title);
    if (missing.length > 0) {
      warn(
        `${article.file}: its share card leaves out ${missing.slice(0, 5).join(' ')}${missing.length > 5 ? ' …' : ''} from the title, which the card's fonts (Inter: Latin, Greek, Cyrillic) do not have; give the article its own card with image: in front matter, or add a font that has them in site/share/card.tsx.`,
      );
    }
    const card: CardProps = { title: article.title, date: cardDate(article.date, article.locale), brand };
    // A translation's card shows its date in its language.
    const language = otherLocale(article.locale);
    return {
      path: shareImagePath(article),
      key: JSON.stringify([article.title, article.date, brand, fonts, ...(language ? [language] : [])]),
      draw: { drawer: 'shareCard', input: card },
    };
  });
}
