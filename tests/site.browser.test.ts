import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, waitForIsland, waitForIslands } from './helpers/browser.ts';
import type { TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';
import { buildRealSite, CHALLENGE_STAND_IN_PATH, challengeStandIn } from './helpers/site.ts';

type ContactMode = 'ok' | 'error' | 'network' | 'hold';

interface ContactRequest {
  contentType: string | undefined;
  body: Record<string, unknown>;
}

describe('the company site in a real browser', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;
  let contactMode: ContactMode = 'ok';
  let contactRequests: ContactRequest[] = [];
  let releaseHeld: (() => void) | undefined;
  let challengeScriptRequests: string[] = [];

  const routes = [
    // Chromium silently retries a request whose reused keep-alive connection is reset; one
    // connection per request makes a reset a plain network failure, as a visitor would see it.
    (_request: IncomingMessage, response: ServerResponse) => {
      response.setHeader('Connection', 'close');
      return false;
    },
    (request: IncomingMessage, response: ServerResponse) => {
      if (!request.url?.startsWith(CHALLENGE_STAND_IN_PATH)) return false;
      challengeScriptRequests.push(request.url);
      setTimeout(() => response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(challengeStandIn), 400);
      return true;
    },
    async (request: IncomingMessage, response: ServerResponse) => {
      if (request.url !== '/api/contact') return false;
      let raw = '';
      for await (const chunk of request) raw += chunk;
      contactRequests.push({ contentType: request.headers['content-type'], body: JSON.parse(raw) });
      if (contactMode === 'network') {
        request.socket.destroy();
        return true;
      }
      if (contactMode === 'hold') await new Promise<void>((resolve) => (releaseHeld = resolve));
      const ok = contactMode !== 'error';
      response.writeHead(ok ? 200 : 500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok }));
      return true;
    },
  ];

  beforeAll(async () => {
    site = await buildRealSite(async (copy) => {
      await copy.write(
        'content/news/network-upgrade.md',
        '---\ntitle: Network upgrade\ndate: "2025-06-01"\n---\nBody\n\n| Chain | Blocks | Note |\n|:--|--:|:-:|\n| Celo | 12 | ok |\n',
      );
      await copy.write(
        'content/news/celo-anniversary.md',
        '---\ntitle: Two years on Celo\ndate: "2024-10-08"\n---\nBody',
      );
    });
    server = await serveSite(site.file('dist'), routes);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  describe('header', () => {
    it('gains a shadow once scrolled by more than 8 px, and loses it when back', async () => {
      const { page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
      await page.goto(`${server.url}/`);
      await waitForIslands(page);
      const header = page.locator('.site-header');
      const shadow = () => header.evaluate((element) => getComputedStyle(element).boxShadow);
      const scrollTo = async (y: number) => {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.waitForFunction((top) => window.scrollY === top, y);
      };

      // A scroll-driven animation in CSS: no script involved.
      await scrollTo(8);
      await expect.poll(shadow).toBe('none');

      await scrollTo(9);
      await expect.poll(shadow).not.toBe('none');

      await scrollTo(0);
      await expect.poll(shadow).toBe('none');
      expect(errors).toEqual([]);
    });

    it('stays at the top of the viewport while scrolling', async () => {
      const { page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
      await page.goto(`${server.url}/`);
      await page.evaluate(() => window.scrollTo(0, 1500));
      await expect
        .poll(() => page.locator('.site-header').evaluate((element) => element.getBoundingClientRect().top))
        .toBe(0);
    });

    it('has a mobile menu that toggles, and is closed after navigation', async () => {
      const { page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
      await page.goto(`${server.url}/`);
      await waitForIslands(page);
      const toggle = page.getByRole('button', { name: 'Menu' });
      const menu = page.locator('#site-menu');
      const open = () => menu.evaluate((element) => element.matches(':popover-open'));

      expect(await open()).toBe(false);
      expect(await menu.isVisible()).toBe(false);

      await toggle.click();
      expect(await open()).toBe(true);
      expect(await menu.isVisible()).toBe(true);

      await toggle.click();
      expect(await open()).toBe(false);
      expect(await menu.isVisible()).toBe(false);

      await toggle.click();
      await menu.getByRole('link', { name: 'About' }).click();
      await page.waitForURL(`${server.url}/about`);
      expect(await page.locator('#site-menu').evaluate((element) => element.matches(':popover-open'))).toBe(false);
      expect(await page.locator('#site-menu').isVisible()).toBe(false);
    });

    it('closes the menu when the page comes back from the back-forward cache', async () => {
      const { page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
      await page.addInitScript(() => {
        window.addEventListener('pageshow', (event) => {
          (window as unknown as { restoredFromCache: boolean }).restoredFromCache = event.persisted;
        });
      });
      await page.goto(`${server.url}/networks`);
      await waitForIslands(page);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
      await page.goto(`${server.url}/legal`);
      await page.goBack();
      await expect.poll(() => page.locator('#site-menu').isVisible()).toBe(false);
    });

    it('shows the full navigation without a toggle on a desktop', async () => {
      const { page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
      await page.goto(`${server.url}/about`);
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
      expect(await page.locator('#site-menu a[aria-current="page"]').textContent()).toBe('About');
    });
  });

  describe('FAQ', () => {
    it('opens and closes each of the 5 items by mouse', async () => {
      const { page } = await openPage(browser);
      await page.goto(`${server.url}/`);
      const items = page.locator('.faq-item');
      expect(await items.count()).toBe(5);
      for (let index = 0; index < 5; index++) {
        const item = items.nth(index);
        const answer = item.locator('p');
        expect(await answer.isVisible()).toBe(false);
        await item.locator('summary').click();
        expect(await answer.isVisible()).toBe(true);
        expect((await answer.textContent())!.length).toBeGreaterThan(40);
        await item.locator('summary').click();
        expect(await answer.isVisible()).toBe(false);
      }
    });

    it('opens and closes by keyboard', async () => {
      const { page } = await openPage(browser);
      await page.goto(`${server.url}/`);
      const first = page.locator('.faq-item').first();
      await first.locator('summary').focus();
      await page.keyboard.press('Enter');
      expect(await first.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
      await page.keyboard.press('Space');
      expect(await first.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      expect(
        await page
          .locator('.faq-item')
          .nth(1)
          .evaluate((element) => (element as HTMLDetailsElement).open),
      ).toBe(true);
    });
  });

  describe('copy buttons', () => {
    async function copyAndRead(page: Page, button: ReturnType<Page['locator']>) {
      await waitForIsland(button);
      await button.click();
      await expect.poll(() => button.getAttribute('class')).toContain('is-copied');
      return page.evaluate(() => navigator.clipboard.readText());
    }

    it('copy the Celo address and each RPC endpoint, confirming for a moment', async () => {
      const { page, errors } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
      await page.goto(`${server.url}/networks`);
      const rows = page.locator('.network-card').first().locator('.copy-value');
      expect(await rows.count()).toBe(6);
      for (let index = 0; index < 6; index++) {
        const row = rows.nth(index);
        const value = await row.locator('code').textContent();
        const button = row.getByRole('button');
        expect(await copyAndRead(page, button)).toBe(value);
        expect(await button.locator('[aria-hidden="true"]').textContent()).toBe('Copied');
      }
      const last = rows.nth(5).getByRole('button');
      await expect.poll(() => last.locator('[aria-hidden="true"]').textContent(), { timeout: 4000 }).toBe('Copy');
      expect(errors).toEqual([]);
    });

    it('copies the contact e-mail address', async () => {
      const { page } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
      await page.goto(`${server.url}/contact`);
      const email = await page.locator('.contact-aside a[href^="mailto:"]').textContent();
      expect(await copyAndRead(page, page.getByRole('button', { name: 'Copy e-mail address' }))).toBe(email);
    });
  });

  describe('contact form', () => {
    beforeEach(() => {
      releaseHeld = undefined;
      contactMode = 'ok';
      contactRequests = [];
      challengeScriptRequests = [];
    });

    async function openForm() {
      const { page, errors } = await openPage(browser);
      await page.goto(`${server.url}/contact`);
      await waitForIslands(page);
      return { page, errors };
    }

    async function fill(page: Page) {
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('E-mail').fill('ada@example.org');
      await page.getByLabel('Subject').fill('Staking 10k CELO');
      await page.getByLabel('Message').fill('Hello, we would like to stake with you.');
    }

    const verify = (page: Page) => page.getByRole('button', { name: 'I am human' }).click();
    const submit = (page: Page) => page.getByRole('button', { name: /Send message|Sending…/ });

    it('loads the challenge script from the configured address and renders the widget with the site key', async () => {
      const { page } = await openForm();
      await page.getByRole('button', { name: 'I am human' }).waitFor();
      expect(challengeScriptRequests).toEqual([`${CHALLENGE_STAND_IN_PATH}?render=explicit`]);
      const renders = await page.evaluate(() => (window as any).__challenge.renders);
      expect(renders).toEqual([{ sitekey: '1x00000000000000000000AA' }]);
    });

    it('without a completed check: "Verification failed. Please complete the check." and nothing is sent', async () => {
      const { page } = await openForm();
      await fill(page);
      await submit(page).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Verification failed. Please complete the check.');
      expect(contactRequests).toEqual([]);
      expect(await page.getByLabel('Name').inputValue()).toBe('Ada Lovelace');
    });

    it('requires every field (the browser blocks an empty form) and an e-mail address', async () => {
      const { page } = await openForm();
      await verify(page);
      await submit(page).click();
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('name');
      await fill(page);
      await page.getByLabel('E-mail').fill('not-an-email');
      await submit(page).click();
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('email');
      expect(contactRequests).toEqual([]);
    });

    it("success: posts JSON, reads 'Sending…' disabled meanwhile, then thanks, resets the form, token and widget", async () => {
      const { page, errors } = await openForm();
      contactMode = 'hold';
      await fill(page);
      await verify(page);
      await submit(page).click();

      await expect.poll(() => submit(page).textContent()).toBe('Sending…');
      expect(await submit(page).isDisabled()).toBe(true);
      await expect.poll(() => contactRequests.length).toBe(1);
      expect(contactRequests[0]).toEqual({
        contentType: 'application/json',
        body: {
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          subject: 'Staking 10k CELO',
          message: 'Hello, we would like to stake with you.',
          turnstileToken: 'stand-in-token-1',
        },
      });

      releaseHeld!();
      await expect.poll(() => page.getByRole('status').last().textContent()).toBe('Thanks! We received your message.');
      expect(await submit(page).textContent()).toBe('Send message');
      expect(await submit(page).isDisabled()).toBe(false);
      for (const label of ['Name', 'E-mail', 'Subject', 'Message'])
        expect(await page.getByLabel(label).inputValue()).toBe('');
      expect(await page.evaluate(() => (window as any).__challenge.resets)).toEqual(['widget-1']);

      // The token was cleared: sending again without a new check fails verification.
      await fill(page);
      await submit(page).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Verification failed. Please complete the check.');
      expect(contactRequests).toHaveLength(1);
      expect(errors).toEqual([]);
    });

    it('a response that is not ok: "Something went wrong. Please try again later." and the form is kept', async () => {
      const { page } = await openForm();
      contactMode = 'error';
      await fill(page);
      await verify(page);
      await submit(page).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Something went wrong. Please try again later.');
      expect(contactRequests).toHaveLength(1);
      expect(await page.getByLabel('Message').inputValue()).toBe('Hello, we would like to stake with you.');
      expect(await submit(page).isDisabled()).toBe(false);
    });

    it('a failed request: "Something went wrong. Please try again later."', async () => {
      const { page } = await openForm();
      contactMode = 'network';
      await fill(page);
      await verify(page);
      await submit(page).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('Something went wrong. Please try again later.');
      expect(contactRequests).toHaveLength(1);
    });

    it('clears an earlier error when sending again', async () => {
      const { page } = await openForm();
      await fill(page);
      await submit(page).click();
      await page.getByRole('alert').waitFor();
      contactMode = 'hold';
      await verify(page);
      await submit(page).click();
      await expect.poll(() => submit(page).textContent()).toBe('Sending…');
      expect(await page.getByRole('alert').count()).toBe(0);
      await expect.poll(() => contactRequests.length).toBe(1);
      releaseHeld!();
      await page.getByText('Thanks! We received your message.').waitFor();
    });
  });

  describe('news', () => {
    it('lists articles newest first, each linking to its page', async () => {
      const { page } = await openPage(browser);
      await page.goto(`${server.url}/news`);
      expect(await page.locator('.news-card h2').allTextContents()).toEqual([
        'Network upgrade',
        'Hello world',
        'Two years on Celo',
      ]);
      expect(await page.locator('.news-card').first().getAttribute('href')).toBe('/news/network-upgrade');
      await page.locator('.news-card').nth(1).click();
      await page.waitForURL(`${server.url}/news/hello-world`);
      expect(await page.locator('h1').textContent()).toBe('Hello world');
    });

    const dateIn = async (locale: string, timezoneId: string) => {
      const { page } = await openPage(browser, { locale, timezoneId });
      await page.goto(`${server.url}/news`);
      const time = page.locator('.news-card time').nth(1);
      await waitForIsland(time);
      expect(await time.getAttribute('datetime')).toBe('2025-01-01');
      return time.textContent();
    };

    it("shows dates in the reader's locale format", async () => {
      const expected = (locale: string) =>
        new Date('2025-01-01').toLocaleDateString(locale, { dateStyle: 'long', timeZone: 'UTC' });
      const american = await dateIn('en-US', 'America/New_York');
      const austrian = await dateIn('de-AT', 'Europe/Vienna');
      expect(american).toBe(expected('en-US'));
      expect(austrian).toBe(expected('de-AT'));
      expect(american).not.toBe(austrian);
      // A calendar date is not shifted to the day before west of Greenwich.
      expect(american).toContain('2025');
    });
  });

  describe('unknown pages', () => {
    it("/news/<unknown> shows 'Not found' and 'The article does not exist.' with status 404", async () => {
      const { page } = await openPage(browser);
      const response = await page.goto(`${server.url}/news/no-such-article`);
      expect(response!.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Not found');
      expect(await page.getByText('The article does not exist.').isVisible()).toBe(true);
    });

    it('any other unknown path shows the root not-found page with status 404', async () => {
      const { page } = await openPage(browser);
      const response = await page.goto(`${server.url}/no/such/page`);
      expect(response!.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Not found');
    });
  });

  describe('without JavaScript', () => {
    it('every page is complete and readable', async () => {
      const { page } = await openPage(browser, { javaScriptEnabled: false });
      for (const path of [
        '/',
        '/about',
        '/services',
        '/networks',
        '/contact',
        '/news',
        '/news/hello-world',
        '/legal',
      ]) {
        await page.goto(server.url + path);
        expect(await page.locator('h1').count(), path).toBe(1);
        expect(await page.locator('footer').isVisible(), path).toBe(true);
      }
      await page.goto(`${server.url}/news`);
      expect(await page.locator('.news-card time').first().textContent()).toMatch(/2025/);
    });
  });

  it("keeps a Markdown table's column alignment (the cells' align attribute) under the site's styles", async () => {
    const { page } = await openPage(browser);
    await page.goto(`${server.url}/news/network-upgrade`);
    // Chromium gives the align attribute's alignment as -webkit-left, -webkit-right, -webkit-center.
    const alignOf = (cells: Element[]) =>
      cells.map((cell) => getComputedStyle(cell).textAlign.replace(/^-webkit-/, ''));
    const aligns = await page.$$eval('.prose table tr:last-child td', alignOf);
    expect(aligns).toEqual(['left', 'right', 'center']);
    const headers = await page.$$eval('.prose table th', alignOf);
    expect(headers).toEqual(['left', 'right', 'center']);
  });
});
