// The share card of each article (site/share-image.tsx, site/share/card.tsx): what its cache key
// holds, what the card component draws through satori and sharp, and which titles it warns about.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { drawShareImage, shareDrawers, shareImages, SHARE_CARD, undrawnCharacters } from '../site/share-image.tsx';
import { bundleServer } from '../src/bundle/bundle-server.ts';
import { drawingCode } from '../src/cards/drawn-files.ts';
import { projectAt } from '../src/project.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const article = {
  slug: 'a',
  file: 'content/news/a.md',
  title: 'Client diversity on mainnet',
  date: '2025-03-04',
} as Article;

type Pixels = { data: Buffer; info: { width: number; height: number; channels: number } };
const pixelsOf = async (png: Uint8Array): Promise<Pixels> => sharp(png).raw().toBuffer({ resolveWithObject: true });
const draw = async (title: string) =>
  pixelsOf(await drawShareImage({ title, date: '4 March 2025', brand: 'Brand' }, repoRoot));
const pixel = (image: Pixels, x: number, y: number) => image.data.readUIntBE((y * image.info.width + x) * 3, 3);

/**
 * Where a title may draw: the content box (88 px in from the sides) between the brand row and the
 * date, and the few pixels a glyph's edge may overhang it (the bar of "ł" is smoothed into x = 87).
 */
const OVERHANG = 4;
const TITLE_BOX = { left: 88 - OVERHANG, right: 1200 - 88 + OVERHANG, top: 72 + 64, bottom: 630 - 72 - 36 };
const inTitleBox = (x: number, y: number) =>
  x >= TITLE_BOX.left && x < TITLE_BOX.right && y >= TITLE_BOX.top && y < TITLE_BOX.bottom;

/** How many pixels of the title box are near white (the title's colour): its ink. */
function ink(image: Pixels): number {
  let white = 0;
  for (let y = TITLE_BOX.top; y < TITLE_BOX.bottom; y += 2)
    for (let x = TITLE_BOX.left; x < TITLE_BOX.right; x += 2) if (pixel(image, x, y) >= 0xf0f0f0) white++;
  return white;
}

describe('share cards', () => {
  let other: string;
  let blank: Pixels;
  beforeAll(async () => {
    other = await mkdtemp(path.join(tmpdir(), 'ssg-card-'));
    await cp(path.join(repoRoot, 'site', 'share', 'fonts'), path.join(other, 'site', 'share', 'fonts'), {
      recursive: true,
    });
    blank = await draw(' ');
  });
  afterAll(() => rm(other, { recursive: true, force: true }));

  it('key each card by title, date, brand and the fonts it is drawn in, and hand the drawer plain data', async () => {
    const file = (changes: Partial<Article>, brand = 'Brand', root = repoRoot) =>
      shareImages([{ ...article, ...changes }], brand, root)[0]!;
    const key = (...args: Parameters<typeof file>) => file(...args).key;
    expect(key({})).toBe(key({}, 'Brand', other)); // the same font files elsewhere
    expect(
      new Set([key({}), key({ title: 'Another' }), key({ date: '2025-03-05' }), key({}, 'Other brand')]).size,
    ).toBe(4);
    // What goes to a helper process survives the trip as it is.
    const { draw: how } = file({});
    expect(how).toEqual({ drawer: 'shareCard', input: { title: article.title, date: '4 March 2025', brand: 'Brand' } });
    expect(structuredClone(how)).toEqual(how);
    const font = path.join(other, 'site', 'share', 'fonts', 'inter-700.ttf');
    await writeFile(font, Buffer.from('not the font any more'));
    // A fresh module would read the new file: the stamp is per site folder, so use a third folder.
    const third = await mkdtemp(path.join(tmpdir(), 'ssg-card-'));
    try {
      await cp(path.join(other, 'site'), path.join(third, 'site'), { recursive: true });
      expect(key({}, 'Brand', third)).not.toBe(key({}));
    } finally {
      await rm(third, { recursive: true, force: true });
    }
  });

  it('draws a 1200×630 opaque PNG whose title area differs by title, on the same background', async () => {
    const [a, b] = await Promise.all([draw('One title'), draw('Quite another title altogether')]);
    expect([a.info.width, a.info.height, a.info.channels]).toEqual([SHARE_CARD.width, SHARE_CARD.height, 3]);
    // The brand row and the corners are the shared background; the title row is not.
    expect(pixel(a, 5, 5)).toBe(pixel(b, 5, 5));
    expect(pixel(a, 1195, 625)).toBe(pixel(b, 1195, 625));
    expect(ink(a)).toBeGreaterThan(200);
    expect(ink(b)).toBeGreaterThan(ink(a));
  });

  it('draws any Latin, Greek or Cyrillic title inside its box, in ink, and leaves the rest of the card as it is (fast-check)', async () => {
    const letters = [
      ...'abcdefghijklmnopqrstuvwxyzÄÖÜßéèçñøåłŠŽ',
      ...'αβγδεζηθικλμνξοπρστυφχψωΩΣΔ',
      ...'абвгдежзийклмнопрстуфхцчшщъыьэюяЖЯ',
    ];
    const word = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 14 }).map((chars) => chars.join(''));
    const title = fc.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(' '));
    await fc.assert(
      fc.asyncProperty(title, async (text) => {
        expect(undrawnCharacters(text)).toEqual([]);
        const card = await draw(text);
        expect(ink(card)).toBeGreaterThan(0);
        // Long titles are clamped to three lines: nothing spills over the date, the margins or the brand.
        for (let y = 0; y < 630; y += 3)
          for (let x = 0; x < 1200; x += 3) if (!inTitleBox(x, y)) expect(pixel(card, x, y)).toBe(pixel(blank, x, y));
      }),
      { numRuns: 12 },
    );
  });

  it('names the characters its fonts lack (Chinese, Arabic, emoji) and warns naming the article', () => {
    expect(undrawnCharacters('Ethereum: Ökosystem, Ελλάδα, Россия — 100 % “up”')).toEqual([]);
    expect(undrawnCharacters('验证者 update 🚀')).toEqual(['验', '证', '者', '🚀']);
    expect(undrawnCharacters('تحديث تحديث')).toEqual([...'تحديث']);
    const warnings: string[] = [];
    shareImages([{ ...article, title: 'Staking 🚀 in 東京' }, article], 'Brand', repoRoot, (message) =>
      warnings.push(message),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^content\/news\/a\.md: its share card leaves out 🚀 東 京 from the title/);
    expect(warnings[0]).toContain('image:');
  });

  it("makes an article's own image into a JPEG card through its drawer, and refuses what is no image by its bytes", async () => {
    const dir = await mkdtemp(path.join(repoRoot, '.cache-card-'));
    try {
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c00' } })
        .png()
        .toFile(path.join(dir, 'photo.png'));
      await writeFile(
        path.join(dir, 'fake.png'),
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30"/></svg>',
      );
      const relative = path.relative(repoRoot, dir);
      const jpeg = await shareDrawers.shareCardFromImage!({ file: `${relative}/photo.png` }, { root: repoRoot });
      const read = await sharp(jpeg).metadata();
      expect([read.format, read.width, read.height]).toEqual(['jpeg', SHARE_CARD.width, SHARE_CARD.height]);
      await expect(
        shareDrawers.shareCardFromImage!({ file: `${relative}/fake.png` }, { root: repoRoot }),
      ).rejects.toThrow(/in SVG format whatever its name says/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the card's cache key and the site's code", () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(repoRoot, [
      'dist',
      'node_modules',
      '.cache',
      '.git',
      'tests',
      'scripts',
      'lib',
      'screenshots',
      'data',
    ]);
  });
  afterAll(() => site.dispose());

  /** The code part of the card's key (its drawer's module and what that imports) after `edit`. */
  async function cardCode(edit?: [file: string, from: string, to: string]) {
    if (edit) {
      const [file, from, to] = edit;
      const text = await site.read(file);
      expect(text).toContain(from);
      await site.write(file, text.replace(from, to));
    }
    const bundle = await bundleServer(projectAt(site.dir));
    const [card] = shareImages([article], 'Brand', site.dir);
    return drawingCode(bundle)(card!);
  }

  it('stays the same after an edit to a page, a style or a component the card does not import, and changes with the card or a module it imports', async () => {
    const before = await cardCode();
    expect(await cardCode(['site/pages/legal.tsx', '<p>', '<p data-edited="">'])).toBe(before);
    expect(
      await cardCode([
        'site/styles/index.css',
        'color-scheme: light dark;',
        'color-scheme: light dark; accent-color: red;',
      ]),
    ).toBe(before);
    const cardEdited = await cardCode(['site/share/card.tsx', "'#b9d3e2'", "'#b9d3e3'"]);
    expect(cardEdited).not.toBe(before);
    // A module the card's drawing imports (share-image.tsx formats the date with it).
    expect(await cardCode(['site/dates.ts', '?.[1] ?? date;', '?.[1] ?? date.trim();'])).not.toBe(cardEdited);
  });
});
