// npm run icons: draws favicon.ico (16 and 32 px) and apple-touch-icon.png (180 px) from
// site/public/favicon.svg with Chromium, so the three icons never drift apart. Run it again
// after changing favicon.svg.
import { readFile, writeFile } from 'node:fs/promises';
import { launchBrowser } from '../tests/helpers/browser.ts';

const svg = await readFile('site/public/favicon.svg', 'utf8');
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** An ICO file whose images are PNGs (supported by every browser that reads ICO since 2008). */
function icoOf(images: Array<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size % 256, 0); // 0 means 256
    entry.writeUInt8(size % 256, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const draw = async (size: number, padding: number, background: string) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<body style="margin:0;background:${background}"><img src="${dataUrl}" style="display:block;width:${size - 2 * padding}px;height:${size - 2 * padding}px;margin:${padding}px"></body>`,
    );
    await page.waitForFunction(() => document.images[0]?.complete);
    return page.screenshot({ omitBackground: background === 'transparent', type: 'png' });
  };
  const ico = icoOf([
    { size: 16, png: await draw(16, 0, 'transparent') },
    { size: 32, png: await draw(32, 0, 'transparent') },
  ]);
  await writeFile('site/public/favicon.ico', ico);
  // iOS draws its own rounded corners and shows transparency as black: fill the square.
  await writeFile('site/public/apple-touch-icon.png', await draw(180, 0, '#0a7c6e'));
  console.log('site/public/favicon.ico and site/public/apple-touch-icon.png written');
} finally {
  await browser.close();
}
