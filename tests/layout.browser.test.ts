import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydrateEverything, launchBrowser } from './helpers/browser.ts';
import { repoRoot, type TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';
import { sharedRealSite } from './helpers/site.ts';

const routes = [
  '/',
  '/about',
  '/services',
  '/networks',
  '/contact',
  '/news',
  '/news/hello-world',
  '/legal',
  '/no-such-page',
];
const widths = [320, 390, 1280];
const schemes = ['light', 'dark'] as const;

/** Loads a route with every island awake and the web font settled, so the layout is final. */
async function settle(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrateEverything(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** What sticks out of the viewport: the page's own scroll width and every box past its right edge. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const outside = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.right > width + 0.5;
      })
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: document.scrollingElement!.scrollWidth, width, outside };
  });
}

/** Size, weight, spacing, case and colour of each small label above a heading. */
function eyebrowLooks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main .eyebrow')].map((element) => {
      const style = getComputedStyle(element);
      return [style.fontSize, style.fontWeight, style.letterSpacing, style.textTransform, style.color].join(' ');
    }),
  );
}

function luminance(rgb: string): number {
  const [r, g, b] = rgb
    .match(/[\d.]+/g)!
    .slice(0, 3)
    .map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

describe('layouts in a real browser', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = sharedRealSite();
    server = await serveSite(site.file('dist'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  async function withContext<T>(
    width: number,
    scheme: 'light' | 'dark',
    run: (page: Page, context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    try {
      return await run(await context.newPage(), context);
    } finally {
      await context.close();
    }
  }

  describe.each(schemes)('%s scheme', (scheme) => {
    // One page load per route (page loads are the slow part): at the narrowest width, then the
    // window is widened step by step and the layout checked again at each width (the styles of
    // each width apply as they would at load: the islands do not measure the window). The small
    // labels above headings must also look the same on every page.
    it(`nothing sticks out sideways at ${widths.join(', ')} px on any route; labels above headings look alike`, async () => {
      await withContext(widths[0]!, scheme, async (page) => {
        const looks = new Set<string>();
        for (const route of routes) {
          await settle(page, server.url + route);
          for (const width of widths) {
            await page.setViewportSize({ width, height: 900 });
            const found = await overflow(page);
            expect({ route, ...found }).toEqual({ route, scrollWidth: width, width, outside: [] });
            if (width !== widths.at(-1)) continue;
            const labels = await eyebrowLooks(page);
            expect(labels.length, `${route} has a label above its first heading`).toBeGreaterThan(0);
            for (const look of labels) looks.add(look);
          }
        }
        expect([...looks]).toHaveLength(1);
      });
    });

    it('the success and error notices have their own colours, apart from each other and the text, with AA contrast', async () => {
      await withContext(390, scheme, async (page) => {
        await settle(page, `${server.url}/contact`);
        // The form shows one notice at a time; both are put where it shows them, with its markup.
        const colours = await page.evaluate(() => {
          const status = document.querySelector('.contact-card .form-status')!;
          status.innerHTML =
            '<p class="notice notice-success" role="status">Thanks! We received your message.</p>' +
            '<p class="notice notice-error" role="alert">Something went wrong. Please try again later.</p>';
          const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
          const paragraph = document.querySelector('.contact-aside p')!;
          return {
            success: style('.notice-success').color,
            successBackground: style('.notice-success').backgroundColor,
            error: style('.notice-error').color,
            errorBackground: style('.notice-error').backgroundColor,
            text: getComputedStyle(document.body).color,
            cardText: getComputedStyle(paragraph).color,
          };
        });
        expect(new Set([colours.success, colours.error, colours.text, colours.cardText]).size).toBe(4);
        expect(contrast(colours.success, colours.successBackground)).toBeGreaterThanOrEqual(4.5);
        expect(contrast(colours.error, colours.errorBackground)).toBeGreaterThanOrEqual(4.5);
      });
    });

    it('the theme-color for the scheme is the page background', async () => {
      await withContext(390, scheme, async (page) => {
        await settle(page, server.url + '/');
        const { themes, background } = await page.evaluate(() => ({
          themes: [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => ({
            media: meta.media,
            content: meta.content,
          })),
          background: getComputedStyle(document.body).backgroundColor,
        }));
        expect(themes.map((theme) => theme.media)).toEqual([
          '(prefers-color-scheme: light)',
          '(prefers-color-scheme: dark)',
        ]);
        const mine = themes.find((theme) => theme.media.includes(scheme))!;
        const [r, g, b] = [1, 3, 5].map((start) => parseInt(mine.content.slice(start, start + 2), 16));
        expect(background).toBe(`rgb(${r}, ${g}, ${b})`);
      });
    });
  });

  it('/networks at 1280 px: cards of a row end together and the card with endpoints takes its own row', async () => {
    await withContext(1280, 'light', async (page) => {
      await settle(page, `${server.url}/networks`);
      const cards = await page.evaluate(() =>
        [...document.querySelectorAll('.network-card')].map((card) => {
          const box = card.getBoundingClientRect();
          return {
            name: card.querySelector('h2')!.textContent,
            top: Math.round(box.top),
            bottom: Math.round(box.bottom),
            width: box.width,
          };
        }),
      );
      const listWidth = await page.evaluate(
        () => document.querySelector('.network-list')!.getBoundingClientRect().width,
      );
      expect(cards[0]!.name).toBe('Celo');
      expect(cards[0]!.width).toBeCloseTo(listWidth, 0);
      const bottomsByRowTop = new Map<number, Set<number>>();
      for (const card of cards)
        bottomsByRowTop.set(card.top, (bottomsByRowTop.get(card.top) ?? new Set()).add(card.bottom));
      expect(bottomsByRowTop.size).toBe(2);
      for (const bottoms of bottomsByRowTop.values()) expect(bottoms.size).toBe(1);
    });
  });

  it('home at 1280 px: the stats labels share one line however the values wrap', async () => {
    await withContext(1280, 'light', async (page) => {
      await settle(page, server.url + '/');
      const tops = await page.evaluate(() =>
        [...document.querySelectorAll('.stat dt')].map((label) => Math.round(label.getBoundingClientRect().top)),
      );
      expect(tops).toHaveLength(4);
      expect(new Set(tops).size).toBe(1);
    });
  });

  it.each([320, 390])(
    'at %i px long addresses and URLs wrap only between their parts, never inside one',
    async (width) => {
      await withContext(width, 'light', async (page) => {
        for (const route of ['/networks', '/contact']) {
          await settle(page, server.url + route);
          const split = await page.evaluate(() =>
            [...document.querySelectorAll('.copy-value code, .copy-value a')].flatMap((value) =>
              [...value.childNodes]
                .filter((node) => node.nodeType === Node.TEXT_NODE)
                .filter((node) => {
                  const range = document.createRange();
                  range.selectNodeContents(node);
                  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
                })
                .map((node) => node.textContent),
            ),
          );
          expect({ route, split }).toEqual({ route, split: [] });
        }
      });
    },
  );

  describe('icons and the typeface', () => {
    it('serves favicon.ico and the apple-touch-icon, and the head links them', async () => {
      const ico = await fetch(`${server.url}/favicon.ico`);
      expect(ico.status).toBe(200);
      expect(ico.headers.get('content-type')).toBe('image/x-icon');
      expect([...new Uint8Array(await ico.arrayBuffer()).slice(0, 4)]).toEqual([0, 0, 1, 0]);
      const touch = await fetch(`${server.url}/apple-touch-icon.png`);
      expect(touch.status).toBe(200);
      const png = Buffer.from(await touch.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([180, 180]);
      const html = await (await fetch(`${server.url}/about`)).text();
      expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
      expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
    });

    it('the preloaded font is the one the style sheet uses: served with 200, downloaded once and used', async () => {
      await withContext(390, 'light', async (page) => {
        const fontResponses: Array<{ url: string; status: number; type: string | undefined }> = [];
        page.on('response', (response) => {
          if (response.url().endsWith('.woff2'))
            fontResponses.push({
              url: response.url(),
              status: response.status(),
              type: response.headers()['content-type'],
            });
        });
        const warnings: string[] = [];
        page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
        await settle(page, server.url + '/');
        const found = await page.evaluate(() => ({
          preload: document.querySelector<HTMLLinkElement>('link[rel="preload"][as="font"]')?.href,
          faces: [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family),
          inter: document.fonts.check('16px "Inter Variable"'),
          bodyFont: getComputedStyle(document.body).fontFamily,
        }));
        expect(found.preload).toMatch(/\/assets\/inter-latin-wght-normal-\w+\.woff2$/);
        expect(fontResponses).toEqual([{ url: found.preload, status: 200, type: 'font/woff2' }]);
        expect(found.faces).toContain('Inter Variable');
        expect(found.inter).toBe(true);
        expect(found.bodyFont).toMatch(/^"Inter Variable"/);
        expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
      });
    });

    it('without the font file the text still shows in the fallback and nothing overflows', async () => {
      await withContext(320, 'light', async (page) => {
        await page.route('**/*.woff2', (route) => route.abort());
        for (const route of ['/', '/networks']) {
          await settle(page, server.url + route);
          expect(
            await page.evaluate(() =>
              [...document.fonts].some((face) => face.family === 'Inter Variable' && face.status === 'error'),
            ),
          ).toBe(true);
          expect((await overflow(page)).outside).toEqual([]);
        }
      });
    });

    it('the copy of the font in the site is the one of the installed @fontsource-variable/inter', async () => {
      const inPackage = createRequire(import.meta.url).resolve(
        '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
      );
      const inSite = `${repoRoot}/site/styles/fonts/inter-latin-wght-normal.woff2`;
      expect(Buffer.compare(await readFile(inPackage), await readFile(inSite))).toBe(0);
    });
  });
});
