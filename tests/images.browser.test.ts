import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { repoRoot, type TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';
import { buildRealSite } from './helpers/site.ts';

const ARTICLE = '/news/with-images';
const SHOTS = path.join(repoRoot, 'test-results', 'images');

/** A page bundle on the real site: a wide chart, code, and a photo further down. */
async function addBundle(site: TempSite): Promise<void> {
  const dir = 'content/news/with-images';
  await site.write(
    `${dir}/index.md`,
    [
      '---',
      'title: Our validator in pictures',
      'date: "2025-03-01"',
      'excerpt: A chart, some code and a photo.',
      '---',
      'Uptime over the last quarter:',
      '',
      '![Uptime chart: 99.9 % every month](./chart.png)',
      '',
      'Check your delegation with:',
      '',
      '```sh',
      'celocli validatorgroup:show 0x0000000000000000000000000000000000000000',
      '```',
      '',
      ...Array.from(
        { length: 12 },
        (_, index) => `Paragraph ${index + 1} of text that pushes the photo below the fold on a phone.\n`,
      ),
      '![The server rack in Vienna](./rack.jpg)',
      '',
    ].join('\n'),
  );
  const stripes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="800"><rect width="1600" height="800" fill="#0b6e4f"/>${Array.from({ length: 12 }, (_, i) => `<rect x="${60 + i * 125}" y="${760 - 40 * (i + 4)}" width="90" height="${40 * (i + 4)}" fill="#f2c14e"/>`).join('')}</svg>`,
  );
  await sharp(stripes)
    .png()
    .toFile(site.file(`${dir}/chart.png`));
  await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a506b' } })
    .jpeg()
    .toFile(site.file(`${dir}/rack.jpg`));
}

describe('article images in a real browser', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await buildRealSite(addBundle);
    server = await serveSite(site.file('dist'));
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  async function openWithViolations(width: number, colorScheme: 'light' | 'dark' = 'light') {
    const opened = await openPage(browser, { viewport: { width, height: 844 }, colorScheme });
    await opened.page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { violations: string[] }).violations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });
    return opened;
  }

  /** Scrolls each image into view and waits until it has loaded (or failed: naturalWidth 0). */
  async function loadEveryImage(page: Page) {
    const images = page.locator('main picture img');
    const count = await images.count();
    for (let index = 0; index < count; index++) {
      const image = images.nth(index);
      await image.scrollIntoViewIfNeeded();
      await image.evaluate((element: HTMLImageElement) =>
        element.complete
          ? undefined
          : new Promise((resolve) => {
              element.addEventListener('load', resolve, { once: true });
              element.addEventListener('error', resolve, { once: true });
            }),
      );
    }
    return images.evaluateAll((elements: HTMLImageElement[]) =>
      elements.map((element) => ({
        naturalWidth: element.naturalWidth,
        currentSrc: element.currentSrc,
        loading: element.getAttribute('loading'),
      })),
    );
  }

  it('loads every picture (AVIF chosen), the first eagerly and the rest lazily, with no CSP violation', async () => {
    const { page, errors } = await openWithViolations(390);
    const response = await page.goto(server.url + ARTICLE);
    expect(response!.headers()['content-security-policy']).toMatch(/img-src 'self'/);
    const images = await loadEveryImage(page);
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.naturalWidth).toBeGreaterThan(0);
      expect(image.currentSrc).toMatch(new RegExp(`^${server.url}/assets/[\\w-]+\\.avif$`));
    }
    expect(images.map((image) => image.loading)).toEqual([null, 'lazy']);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the space of an image before it loads: nothing shifts', async () => {
    const { page } = await openWithViolations(390);
    await page.route('**/assets/rack-*', () => {}); // never answered: the photo stays unloaded
    await page.goto(server.url + ARTICLE);
    const box = await page.locator('main picture img').nth(1).boundingBox();
    // 900×600 shown in the column of a 390 px screen: the height follows from the width attributes.
    expect(box!.height).toBeGreaterThan(100);
    expect(Math.abs(box!.width / box!.height - 1.5)).toBeLessThan(0.02);
    await page.context().close();
  });

  it('takes screenshots at 390 and 1280 px, light and dark', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [390, 1280]) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page } = await openWithViolations(width, scheme);
        await page.goto(server.url + ARTICLE);
        await loadEveryImage(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        const file = path.join(SHOTS, `article-${width}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect((await sharp(file).metadata()).width).toBe(width);
        await page.context().close();
      }
    }
  }, 120_000);
});
