// The German site in Chromium: the language switcher, the contact form's German messages (with
// and without JavaScript), the German search index, and the pages at a phone's width.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContactHandler } from '../site/contact/handler.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';
import { launchBrowser, openPage, waitForIslands } from './helpers/browser.ts';
import { serveSite, type TestServer } from './helpers/server.ts';
import { CHALLENGE_STAND_IN_PATH, challengeStandIn, sharedRealSite } from './helpers/site.ts';

describe('the German site in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let stored = 0;

  // The real contact handler (for the form posted without JavaScript), storing nothing but a count.
  const handler = createContactHandler({
    verifier: { verify: async () => ({ success: true, hostname: '127.0.0.1', errorCodes: [] }) },
    inbox: { add: () => ++stored },
    rateLimiter: createRateLimiter({ limit: 1000, windowMs: 60_000 }),
    allowedOrigins: [],
  });

  beforeAll(async () => {
    server = await serveSite(`${sharedRealSite().dir}/dist`, [
      (request: IncomingMessage, response: ServerResponse) => {
        if (!request.url?.startsWith(CHALLENGE_STAND_IN_PATH)) return false;
        response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(challengeStandIn);
        return true;
      },
      async (request: IncomingMessage, response: ServerResponse) => {
        if (!request.url?.startsWith('/api/contact')) return false;
        const answer = await handler(
          new Request(`http://127.0.0.1${request.url}`, {
            method: request.method,
            headers: request.headers as Record<string, string>,
            body: request.method === 'POST' ? (Readable.toWeb(request) as ReadableStream) : undefined,
            duplex: 'half',
          } as RequestInit),
          '127.0.0.1',
        );
        response.writeHead(answer.status, Object.fromEntries(answer.headers)).end();
        return true;
      },
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const switcher = (page: Page) => page.getByRole('navigation', { name: /^(Language|Sprache)$/ });

  it('the switcher leads from an English page to its German page and back, at a phone width too', async () => {
    for (const width of [320, 1280]) {
      const { page } = await openPage(browser, { viewport: { width, height: 800 } });
      await page.goto(`${server.url}/news/hello-world`);
      const english = switcher(page);
      expect(await english.getAttribute('aria-label')).toBe('Language');
      expect(await english.getByRole('link', { name: 'English' }).getAttribute('aria-current')).toBe('page');
      await english.getByRole('link', { name: 'Deutsch' }).click();
      await page.waitForURL(`${server.url}/de/news/hello-world`);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hallo Welt');
      const german = switcher(page);
      expect(await german.getAttribute('aria-label')).toBe('Sprache');
      expect(await german.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current')).toBe('page');
      await german.getByRole('link', { name: 'English' }).click();
      await page.waitForURL(`${server.url}/news/hello-world`);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await page.close();
    }
  });

  it('the header stays on one line with the switcher, and no German page is wider than 320 px', async () => {
    const { page } = await openPage(browser, { viewport: { width: 320, height: 800 } });
    for (const route of ['/de', '/de/about', '/de/services', '/de/networks', '/de/contact', '/de/news', '/de/legal']) {
      await page.goto(server.url + route);
      await page.evaluate(() => document.fonts.ready);
      const boxes = await page.evaluate(() =>
        ['.site-header .brand', '.language-switcher', '.menu-toggle'].map((selector) => {
          const box = document.querySelector(selector)!.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom, right: box.right };
        }),
      );
      const header = await page.locator('.site-header').boundingBox();
      for (const box of boxes) {
        expect(box.bottom, route).toBeLessThanOrEqual(header!.y + header!.height);
        expect(box.right, route).toBeLessThanOrEqual(320);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth), route).toBeLessThanOrEqual(320);
    }
  });

  it('the contact form on /de/contact says its check, failure and success in German', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/de/contact`);
    await waitForIslands(page);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('E-Mail').fill('ada@mail.test');
    await page.getByLabel('Betreff').fill('Staking');
    await page.getByLabel('Nachricht').fill('Wir möchten delegieren.');
    // Sent before the check is solved: the form's own check says so.
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await page
      .getByRole('alert')
      .getByText('Die Prüfung ist fehlgeschlagen. Bitte schließen Sie die Prüfung ab.')
      .waitFor();
    // The endpoint refuses (this one allows no origin): the request failed, in German.
    await page.getByRole('button', { name: 'I am human' }).click();
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await page
      .getByRole('alert')
      .getByText('Da ist etwas schiefgegangen. Bitte versuchen Sie es später noch einmal.')
      .waitFor();
    // An endpoint that takes it: thanks, in German.
    await page.route('**/api/contact', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"ok":true}' }),
    );
    await page.getByRole('button', { name: 'I am human' }).click();
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await page.getByRole('status').getByText('Danke! Ihre Nachricht ist bei uns angekommen.').waitFor();
    expect(await page.getByLabel('Nachricht').inputValue()).toBe('');
    expect(errors.filter((line) => !/status of (403|500)/.test(line))).toEqual([]);
  });

  it('an empty German form is not sent', async () => {
    const { page } = await openPage(browser);
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    await page.goto(`${server.url}/de/contact`);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    expect(await page.getByLabel('Name').evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    expect(posts).toEqual([]);
    expect(page.url()).toBe(`${server.url}/de/contact`);
  });

  it('without JavaScript a German form lands on the German explanation, nothing stored', async () => {
    const { page } = await openPage(browser, { javaScriptEnabled: false });
    const before = stored;
    await page.goto(`${server.url}/de/contact`);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('E-Mail').fill('ada@mail.test');
    await page.getByLabel('Betreff').fill('Betreff');
    await page.getByLabel('Nachricht').fill('Vertraulich');
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await page.waitForURL(`${server.url}/de/contact/no-script`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ihre Nachricht wurde nicht gesendet');
    expect(await page.getByRole('link', { name: 'Kontaktformular' }).getAttribute('href')).toBe('/de/contact');
    expect(stored).toBe(before);
  });

  it('the German search box finds a German word of the German article, and not the English one', async () => {
    const { page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/de/news`);
    const field = page.getByLabel('Neuigkeiten durchsuchen');
    expect(await field.getAttribute('placeholder')).toBe('Validator, Upgrade, Celo …');
    await field.fill('Endpunkten');
    const result = page.locator('.news-search-results a', { hasText: 'Hallo Welt' });
    await result.waitFor();
    expect(await result.getAttribute('href')).toMatch(/^\/de\/news\/hello-world/);
    expect(await page.getByRole('status').textContent()).toBe('1 Artikel gefunden.');
    expect(await page.getByRole('list', { name: 'Suchergebnisse' }).count()).toBe(1);
    await field.fill('Welcome');
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Keine Artikel zu „Welcome“ gefunden.');
  });
});
