import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContactHandler, type ContactMessage } from '../site/contact/handler.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';
import { launchBrowser, openPage } from './helpers/browser.ts';
import type { TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';
import { sharedRealSite, CHALLENGE_STAND_IN_PATH, challengeStandIn } from './helpers/site.ts';

/** Routes whose only islands wait for interaction, or that have none: no script before it. */
const STATIC_ROUTES = ['/', '/about', '/services', '/networks', '/legal'];

describe('no script before it is needed, no dead ends', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;
  let email: string;
  const stored: ContactMessage[] = [];
  const verified: string[] = [];
  const requestUrls: string[] = [];

  // The real contact handler, with an inbox and a verifier that only record.
  const handler = createContactHandler({
    verifier: {
      verify: async (token) => (verified.push(token), { success: true, hostname: '127.0.0.1', errorCodes: [] }),
    },
    inbox: { add: (message) => stored.push(message) },
    rateLimiter: createRateLimiter({ limit: 1000, windowMs: 60_000 }),
    allowedOrigins: [],
  });

  const routes = [
    (request: IncomingMessage) => {
      requestUrls.push(request.url ?? '');
      return false;
    },
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
      response
        .writeHead(answer.status, Object.fromEntries(answer.headers))
        .end(Buffer.from(await answer.arrayBuffer()));
      return true;
    },
  ];

  beforeAll(async () => {
    site = sharedRealSite();
    email = /email: (\S+)/.exec(await site.read('content/site.yaml'))![1]!.replace(/['"]/g, '');
    server = await serveSite(`${site.dir}/dist`, routes);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  /** Every script the page requests, from the moment it starts loading. */
  function recordScripts(page: Page): string[] {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    return scripts;
  }

  /** Waits until the page has loaded and painted, and nothing is fetched any more. */
  async function settle(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }

  it.each(STATIC_ROUTES)('%s fetches no script before the visitor interacts, and no CSP violation', async (route) => {
    const { page, errors } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    const scripts = recordScripts(page);
    await page.goto(server.url + route);
    await settle(page);
    expect(scripts).toEqual([]);
    // The style sheet is inline and applied (the CSP allows it by its hash).
    expect(await page.locator('style[data-ssg-style]').count()).toBe(1);
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
    expect(await page.locator('body').evaluate((body) => getComputedStyle(body).fontFamily)).not.toMatch(/^"?Times/);
    expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('/networks hydrates a copy button on interaction, and replays the click that came first', async () => {
    const { page, errors } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    const scripts = recordScripts(page);
    await page.goto(`${server.url}/networks`);
    await settle(page);
    expect(scripts).toEqual([]);
    const button = page.getByRole('button', { name: /^Copy Celo validator group address/ });
    // One click, before any script is on the page: it must still copy.
    await button.click();
    await expect
      .poll(() => button.evaluate((element) => element.closest<HTMLElement>('[data-island]')!.dataset.hydrated))
      .toBe('true');
    await expect.poll(() => button.textContent()).toMatch(/^Copied/);
    const shown = await page.locator('.copy-value code').first().textContent();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    expect(scripts.some((url) => /loader/.test(url))).toBe(true);
    // Only the island that was used: the others wait for their own interaction.
    expect(await page.locator('[data-island="copy-button"][data-hydrated="true"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('a copy the clipboard refuses selects the text, as the label says', async () => {
    const { page, errors } = await openPage(browser);
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) },
      });
    });
    await page.goto(`${server.url}/contact`);
    const button = page.getByRole('button', { name: /^Copy e-mail address/ });
    await button.click();
    await expect.poll(() => button.textContent()).toMatch(/Press (Ctrl\+C|⌘C)/);
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(email);
    expect(errors).toEqual([]);
  });

  it("/news and an article show the date in the reader's locale with a few KB of script and no React", async () => {
    for (const [locale, text] of [
      ['de-DE', '1. Januar 2025'],
      ['en-US', 'January 1, 2025'],
    ] as const) {
      for (const route of ['/news', '/news/hello-world']) {
        const { page, errors } = await openPage(browser, { locale, timezoneId: 'America/Los_Angeles' });
        const scripts = recordScripts(page);
        await page.goto(server.url + route);
        const date = page.locator('[data-island="local-date"]').first();
        await expect.poll(() => date.getAttribute('data-hydrated')).toBe('true');
        // A calendar day stays that day west of Greenwich.
        expect({ route, locale, text: await date.locator('time').textContent() }).toEqual({ route, locale, text });
        expect(await date.locator('time').getAttribute('datetime')).toBe('2025-01-01');
        await settle(page);
        expect(scripts.every((url) => url.startsWith('/assets/'))).toBe(true);
        // The loader and the formatter only: React alone is over 150 KB.
        const bytes = await page.evaluate(
          async (urls) => {
            const bodies = await Promise.all(urls.map((url) => fetch(url).then((answer) => answer.text())));
            return bodies.reduce((sum, body) => sum + body.length, 0);
          },
          [...new Set(scripts)],
        );
        expect({ route, bytes: bytes < 8_000 }).toEqual({ route, bytes: true });
        expect(await page.content()).not.toContain('data-island="contact-form"');
        expect(errors).toEqual([]);
        await page.context().close();
      }
    }
  });

  it('/contact loads the form code when the form is in view, not the copy button code', async () => {
    const { page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    const scripts = recordScripts(page);
    await page.goto(`${server.url}/contact`);
    const form = page.locator('[data-island="contact-form"]');
    await expect.poll(() => form.getAttribute('data-hydrated')).toBe('true');
    await settle(page);
    expect(await page.locator('[data-island="copy-button"]').getAttribute('data-hydrated')).toBeNull();
    expect(scripts.filter((url) => url === CHALLENGE_STAND_IN_PATH)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('/contact fetches the form code only once the page has painted, so it never competes with the first paint', async () => {
    const { page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/contact`);
    await expect.poll(() => page.locator('[data-island="contact-form"]').getAttribute('data-hydrated')).toBe('true');
    const loader = (await page.locator('script[type="module"]').getAttribute('src'))!;
    const { paint, scripts } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\.js(\?|$)/.test(entry.name))
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    // The loader and what it imports statically come with the page; the form's code is imported
    // by the loader when the form is in view, and must not start before the first paint.
    const firstPaintScripts = await staticImports(loader);
    const islandCode = scripts.filter((script) => !firstPaintScripts.has(script.path));
    expect(islandCode.length).toBeGreaterThan(0);
    expect(islandCode.filter((script) => script.start < paint)).toEqual([]);
    expect(errors).toEqual([]);
  });

  /** A module and everything it imports statically (`import "./x.js"`, `from "./x.js"`), as paths. */
  async function staticImports(entry: string): Promise<Set<string>> {
    const found = new Set<string>();
    const pending = [entry];
    while (pending.length > 0) {
      const url = pending.pop()!;
      if (found.has(url)) continue;
      found.add(url);
      const code = await (await fetch(server.url + url)).text();
      for (const [, file] of code.matchAll(/(?:import|from)\s*"\.\/([^"]+\.js)"/g))
        pending.push(new URL(file!, `http://x${url}`).pathname);
    }
    return found;
  }

  describe('without JavaScript', () => {
    it('the mobile menu opens, its links work, and it is closed on the next page', async () => {
      const { page } = await openPage(browser, { javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
      await page.goto(`${server.url}/`);
      const menu = page.locator('#site-menu');
      expect(await menu.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await menu.isVisible()).toBe(true);
      await menu.getByRole('link', { name: 'Networks' }).click();
      await page.waitForURL(`${server.url}/networks`);
      expect(await page.locator('#site-menu').isVisible()).toBe(false);
      expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    });

    it('copy buttons do not show', async () => {
      const { page } = await openPage(browser, { javaScriptEnabled: false });
      await page.goto(`${server.url}/networks`);
      expect(await page.locator('.copy-button').count()).toBeGreaterThan(0);
      expect(await page.locator('.copy-button').first().isVisible()).toBe(false);
    });

    it('the form posts, keeps what was typed out of every URL, stores nothing and explains with the e-mail', async () => {
      const { page } = await openPage(browser, { javaScriptEnabled: false });
      const urls: string[] = [];
      page.on('request', (request) => urls.push(request.url()));
      page.on('framenavigated', (frame) => urls.push(frame.url()));
      requestUrls.length = 0;
      const before = stored.length;
      await page.goto(`${server.url}/contact`);
      const typed = {
        name: 'Secret Name',
        email: 'secret.person@mail.test',
        subject: 'Private subject',
        message: 'Confidential message body',
      };
      await page.getByLabel('Name').fill(typed.name);
      await page.getByLabel('E-mail').fill(typed.email);
      await page.getByLabel('Subject').fill(typed.subject);
      await page.getByLabel('Message').fill(typed.message);
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.waitForURL(`${server.url}/contact/no-script`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your message was not sent');
      expect(await page.getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}`);
      expect(await page.content()).toContain('needs JavaScript');
      for (const url of [...urls, ...requestUrls, page.url()]) {
        for (const value of Object.values(typed)) {
          expect(decodeURIComponent(url).replace(/\+/g, ' ')).not.toContain(value);
          expect(url).not.toContain(encodeURIComponent(value.split(' ')[0]!));
        }
      }
      expect(stored.length).toBe(before);
    });
  });

  it('a blocked challenge script says so in place of the widget and offers the e-mail', async () => {
    const { page } = await openPage(browser);
    await page.route(`**${CHALLENGE_STAND_IN_PATH}*`, (route) => route.abort('blockedbyclient'));
    await page.goto(`${server.url}/contact`);
    const blocked = page.locator('.challenge-blocked');
    await blocked.waitFor();
    expect(await blocked.textContent()).toMatch(/could not load/);
    expect(await blocked.getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}`);
    expect(await page.locator('.challenge').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    // Not shown (the form's words are in its island's props, in the page's source).
    expect(await page.locator('.contact-form').innerText()).not.toContain(
      'Verification failed. Please complete the check.',
    );
  });

  it('with the challenge loaded, an unsolved check still says the spec message', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${server.url}/contact`);
    await page.locator('.challenge button').waitFor();
    await page.getByLabel('Name').fill('A');
    await page.getByLabel('E-mail').fill('a@mail.test');
    await page.getByLabel('Subject').fill('S');
    await page.getByLabel('Message').fill('M');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Verification failed. Please complete the check.').waitFor();
    expect(page.url()).toBe(`${server.url}/contact`);
  });
});
