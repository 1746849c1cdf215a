// The share card of each article (site/share-image.tsx): what its cache key holds, and what it draws.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../src/content/articles.ts';
import { drawShareImage, shareImages, SHARE_CARD } from '../site/share-image.tsx';
import { repoRoot } from './helpers/project.ts';

const article = { slug: 'a', title: 'Client diversity on mainnet', date: '2025-03-04' } as Article;

describe('share cards', () => {
  let other: string;
  beforeAll(async () => {
    other = await mkdtemp(path.join(tmpdir(), 'ssg-card-'));
    await cp(path.join(repoRoot, 'site', 'share', 'fonts'), path.join(other, 'site', 'share', 'fonts'), { recursive: true });
  });
  afterAll(() => rm(other, { recursive: true, force: true }));

  it('key each card by title, date, brand and the fonts it is drawn in', async () => {
    const key = (changes: Partial<Article>, brand = 'Brand', root = repoRoot) => shareImages([{ ...article, ...changes }], brand, root)[0]!.key;
    expect(key({})).toBe(key({}, 'Brand', other)); // the same font files elsewhere
    expect(new Set([key({}), key({ title: 'Another' }), key({ date: '2025-03-05' }), key({}, 'Other brand')]).size).toBe(4);
    const font = path.join(other, 'site', 'share', 'fonts', 'inter-latin-700-normal.woff');
    await writeFile(font, Buffer.concat([await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer()]));
    // A fresh module would read the new file: the stamp is per site folder, so use a third folder.
    const third = await mkdtemp(path.join(tmpdir(), 'ssg-card-'));
    try {
      await cp(path.join(other, 'site'), path.join(third, 'site'), { recursive: true });
      expect(key({}, 'Brand', third)).not.toBe(key({}));
    } finally {
      await rm(third, { recursive: true, force: true });
    }
  });

  it('draws a 1200×630 opaque PNG whose text area differs by title, on the same background', async () => {
    const draw = async (title: string) => sharp(await drawShareImage({ title, date: '2025-03-04' }, 'Brand', repoRoot)).raw().toBuffer({ resolveWithObject: true });
    const [a, b] = await Promise.all([draw('One title'), draw('Quite another title altogether')]);
    expect([a.info.width, a.info.height, a.info.channels]).toEqual([SHARE_CARD.width, SHARE_CARD.height, 3]);
    const pixel = (image: typeof a, x: number, y: number) => [...image.data.subarray((y * image.info.width + x) * 3, (y * image.info.width + x) * 3 + 3)];
    // The brand row and the corners are the shared background; the title row is not.
    expect(pixel(a, 5, 5)).toEqual(pixel(b, 5, 5));
    expect(pixel(a, 1195, 625)).toEqual(pixel(b, 1195, 625));
    let differing = 0;
    for (let y = 200; y < 450; y += 4) for (let x = 88; x < 1112; x += 4) if (pixel(a, x, y).join() !== pixel(b, x, y).join()) differing++;
    expect(differing).toBeGreaterThan(100);
  });
});
