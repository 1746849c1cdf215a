import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { pictureOf } from '../src/images/picture.ts';
import { processImage } from '../src/images/process.ts';
import { addSiteImages, processSiteImages } from '../src/images/site-images.ts';
import { projectAt, type Project } from '../src/project.ts';
import { Picture } from '../site/components/picture.tsx';

let project: Project;
beforeAll(async () => {
  project = projectAt(mkdtempSync(path.join(tmpdir(), 'ssg-site-images-')));
  mkdirSync(path.join(project.publicDir, 'team'), { recursive: true });
  // A raster team photo, as staff would replace the SVG placeholders.
  await sharp({ create: { width: 500, height: 600, channels: 3, background: '#557' } })
    .jpeg()
    .toFile(path.join(project.publicDir, 'team/alex.jpg'));
  writeFileSync(
    path.join(project.publicDir, 'team/sam.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"/>',
  );
  writeFileSync(path.join(project.publicDir, 'team/broken.png'), 'not a png');
});
afterAll(() => rmSync(project.root, { recursive: true, force: true }));

describe('the Picture component', () => {
  it('renders a raster photo as <picture> with AVIF and WebP sources, srcset, sizes and its size', async () => {
    const bytes = await sharp({ create: { width: 500, height: 600, channels: 3, background: '#557' } })
      .jpeg()
      .toBuffer();
    const picture = pictureOf(await processImage(bytes, 'site/public/team/alex.jpg'));
    const html = renderToStaticMarkup(
      createElement(Picture, {
        src: '/team/alex.jpg',
        picture: picture,
        alt: 'Portrait of Alex',
        sizes: '96px',
        width: 96,
        height: 96,
      }),
    );
    expect(html).toMatch(
      /^<picture><source type="image\/avif" srcSet="\/assets\/alex-400w-\w+\.avif 400w, \/assets\/alex-500w-\w+\.avif 500w" sizes="96px"\/>/,
    );
    expect(html).toContain('<source type="image/webp"');
    expect(html).toMatch(
      /<img src="\/assets\/alex-500w-\w+\.jpg" srcSet="[^"]+" sizes="96px" width="500" height="600" alt="Portrait of Alex" loading="lazy" decoding="async"\/><\/picture>$/,
    );
    const eager = renderToStaticMarkup(
      createElement(Picture, {
        src: '/team/alex.jpg',
        picture: picture,
        alt: 'x',
        sizes: '96px',
        width: 96,
        height: 96,
        eager: true,
      }),
    );
    expect(eager).not.toContain('loading=');
  });

  it('renders an unprocessed (SVG) photo as a plain <img> with the given size', () => {
    const html = renderToStaticMarkup(
      createElement(Picture, { src: '/team/sam.svg', alt: 'Portrait of Sam', sizes: '96px', width: 96, height: 96 }),
    );
    expect(html).toBe(
      '<img src="/team/sam.svg" alt="Portrait of Sam" width="96" height="96" loading="lazy" decoding="async"/>',
    );
  });

  it('escapes any alt text and path', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (alt, src) => {
        const html = renderToStaticMarkup(
          createElement(Picture, { src: src, alt: alt, sizes: '96px', width: 1, height: 1 }),
        );
        expect(html.match(/<img /g)).toHaveLength(1);
        expect(html.endsWith('/>')).toBe(true);
        expect(html.slice(0, -2)).not.toMatch(/<(?!img )/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('site images', () => {
  it('processes the raster images the site lists, leaves SVG alone, and hands pages data.images', async () => {
    const data: Record<string, unknown> = {};
    const files = await addSiteImages(
      project,
      { images: () => ['/team/alex.jpg', '/team/sam.svg', '/team/alex.jpg'] },
      data,
      'assets',
    );
    const images = data.images as Record<string, ReturnType<typeof pictureOf>>;
    expect(Object.keys(images)).toEqual(['/team/alex.jpg']);
    expect(images['/team/alex.jpg']).toMatchObject({ width: 500, height: 600 });
    expect(
      files.map((file) => file.path).every((file) => /^assets\/alex-(400|500)w-\w+\.(avif|webp|jpg)$/.test(file)),
    ).toBe(true);
    expect(files).toHaveLength(6);
  });

  it('names each missing, damaged or outside file, all at once', async () => {
    const error = await processSiteImages(
      project,
      ['/team/nobody.png', '/team/broken.png', '/../../etc/passwd.png'],
      'assets',
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsgErrorList);
    expect((error as SsgErrorList).errors.map((item) => [item.code, item.file])).toEqual([
      ['ImageMissing', 'site/public/team/nobody.png'],
      ['ImageUnreadable', 'site/public/team/broken.png'],
      // Outside the public folder: refused before anything is read.
      ['ImageMissing', path.relative(project.root, path.join(project.publicDir, '/../../etc/passwd.png'))],
    ]);
  });

  it('refuses a data file that would clash with data.images', async () => {
    const error = await addSiteImages(project, { images: () => [] }, { images: {} }, 'assets').catch(
      (caught: unknown) => caught,
    );
    expect((error as SsgError).code).toBe('ImageDataClash');
  });
});
