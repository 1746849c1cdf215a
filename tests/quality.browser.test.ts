import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { hydrateEverything, launchBrowser, openPage, waitForIslands } from './helpers/browser.ts';
import type { TempSite } from './helpers/project.ts';
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
  '/news/unknown',
  '/no-such-page',
];
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_PATH = '/__test/axe.min.js';

describe('quality in a real browser: security policy and accessibility', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;
  let contactStatus = 200;

  beforeAll(async () => {
    // The challenge stand-in is a file of the shared site, as the provider's script is a file of its own origin.
    site = sharedRealSite();
    server = await serveSite(site.file('dist'), [
      (request: IncomingMessage, response: ServerResponse) => {
        if (request.url !== AXE_PATH) return false;
        response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'max-age=3600' }).end(axeSource);
        return true;
      },
      (request: IncomingMessage, response: ServerResponse) => {
        if (request.url !== '/api/contact') return false;
        response.writeHead(contactStatus, { 'Content-Type': 'application/json' }).end('{}');
        return true;
      },
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  describe('Content-Security-Policy', () => {
    async function pageWithViolations() {
      const opened = await openPage(browser, {
        viewport: { width: 390, height: 844 },
        permissions: ['clipboard-read', 'clipboard-write'],
      });
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
    const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations);

    it.each(routes)('%s loads, hydrates and works with the policy on and nothing blocked', async (route) => {
      const { page, errors } = await pageWithViolations();
      const response = await page.goto(server.url + route);
      expect(response!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      expect(response!.headers()['x-content-type-options']).toBe('nosniff');
      await waitForIslands(page);
      await hydrateEverything(page);
      await page.getByRole('button', { name: 'Menu' }).click();
      if (route === '/networks') await page.locator('.copy-button').first().click();
      if (route === '/contact') {
        await page.getByRole('button', { name: 'I am human' }).click();
        await page.getByLabel('Name').fill('A');
        await page.getByLabel('E-mail').fill('a@example.org');
        await page.getByLabel('Subject').fill('S');
        await page.getByLabel('Message').fill('M');
        await page.getByRole('button', { name: 'Send message' }).click();
        await page.getByText('Thanks! We received your message.').waitFor();
      }
      expect(await violations(page)).toEqual([]);
      expect(errors.filter((error) => /Content Security Policy|Refused to/.test(error))).toEqual([]);
    });
  });

  describe('axe-core finds no accessibility violations', () => {
    // axe is served as a file and every page of these tests is opened in one context, so the
    // browser compiles its 500 KB once (from its code cache) rather than once per test.
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ bypassCSP: true });
    });
    afterAll(() => context?.close());

    async function open(route: string, viewport = { width: 390, height: 844 }): Promise<Page> {
      const page = await context.newPage();
      onTestFinished(() => page.close());
      await page.setViewportSize(viewport);
      await page.goto(server.url + route);
      await waitForIslands(page);
      return page;
    }

    async function axe(page: Page) {
      await page.addScriptTag({ url: AXE_PATH });
      const results = await page.evaluate(async () => {
        const { violations } = await (window as any).axe.run(document, { resultTypes: ['violations'] });
        return violations.map(
          (v: any) => `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
        );
      });
      return results as string[];
    }

    // Each route is loaded once, at the narrow width, and checked there and again with the window
    // widened to 1280 px (the styles of the wide layout apply as they would have at load: the
    // islands do not measure the window).
    it.each(routes)('%s at 390 and at 1280 px', async (route) => {
      const page = await open(route);
      await hydrateEverything(page);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        expect({ width, violations: await axe(page) }).toEqual({ width, violations: [] });
      }
    });

    it('with the mobile menu open, and closed again', async () => {
      const page = await open('/about');
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
      expect(await axe(page)).toEqual([]);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await axe(page)).toEqual([]);
    });

    it('with every FAQ answer open', async () => {
      const page = await open('/');
      for (const summary of await page.locator('.faq-item summary').all()) await summary.click();
      expect(await page.locator('.faq-item[open]').count()).toBe(5);
      expect(await axe(page)).toEqual([]);
    });

    it('with each contact-form message shown', async () => {
      for (const width of [390, 1280]) {
        const page = await open('/contact', { width, height: 900 });
        const fill = async () => {
          await page.getByLabel('Name').fill('A');
          await page.getByLabel('E-mail').fill('a@example.org');
          await page.getByLabel('Subject').fill('S');
          await page.getByLabel('Message').fill('M');
        };
        const send = () => page.getByRole('button', { name: 'Send message' }).click();
        await fill();
        await send();
        await page.getByText('Verification failed. Please complete the check.').waitFor();
        expect(await axe(page)).toEqual([]);

        contactStatus = 500;
        await page.getByRole('button', { name: 'I am human' }).click();
        await send();
        await page.getByText('Something went wrong. Please try again later.').waitFor();
        expect(await axe(page)).toEqual([]);

        contactStatus = 200;
        await send();
        await page.getByText('Thanks! We received your message.').waitFor();
        expect(await axe(page)).toEqual([]);
      }
    });
  });

  describe('keyboard alone', () => {
    it('the skip link comes first and moves focus to the main content, with a visible focus ring', async () => {
      const { page } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}/about`);
      await waitForIslands(page);
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await skip.isVisible()).toBe(true);
      await page.keyboard.press('Tab');
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline).toBe('solid');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    });

    it('the mobile menu opens, is walked through and closes (Escape) by keyboard', async () => {
      const { page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
      await page.goto(`${server.url}/`);
      await waitForIslands(page);
      const toggle = page.getByRole('button', { name: 'Menu' });
      await toggle.focus();
      const open = () => page.locator('#site-menu').evaluate((element) => element.matches(':popover-open'));
      await page.keyboard.press('Enter');
      expect(await open()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
      await page.keyboard.press('Escape');
      expect(await open()).toBe(false);
    });

    it('a copy button works by keyboard', async () => {
      const { page } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
      await page.goto(`${server.url}/contact`);
      const button = page.getByRole('button', { name: 'Copy e-mail address' });
      await button.focus();
      await page.waitForFunction(
        () => document.querySelector<HTMLElement>('[data-island="copy-button"]')?.dataset.hydrated === 'true',
      );
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('hello@example.com');
    });
  });
});
