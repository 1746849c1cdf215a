import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { startPreview } from './helpers/preview.ts';
import { realSiteInDev, sharedRealSite } from './helpers/site.ts';

describe('the news search under ssg preview, in Chromium', () => {
  let child: ChildProcess;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ child, url } = await startPreview(sharedRealSite().dir, 0));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
  });

  it('finds an article by a word of its title and follows the result by keyboard, within the policy', async () => {
    const { page, errors } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { __violations: string[] }).__violations = []);
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${url}/news`, { waitUntil: 'networkidle' });
    const island = page.locator('[data-island="news-search"]');
    // Nothing of the search is fetched until the box is reached: not its code, not Pagefind.
    expect(await island.getAttribute('data-hydrated')).toBeNull();
    const before = [...requested];
    expect(before.filter((file) => file.startsWith('/pagefind/'))).toEqual([]);

    // By keyboard only: Tab until the field has the focus, then type.
    const field = page.getByLabel('Search the news');
    for (
      let presses = 0;
      presses < 40 && !(await field.evaluate((input) => input === document.activeElement));
      presses++
    )
      await page.keyboard.press('Tab');
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('hello');
    const result = page.locator('.news-search-results a', { hasText: 'Hello world' });
    await result.waitFor();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'found' }).textContent())
      .toBe('1 article found.');
    expect(requested.filter((file) => !before.includes(file))).toEqual(
      expect.arrayContaining(['/pagefind/pagefind.js', '/pagefind/wasm.en.pagefind']),
    );

    // Escape empties the box; typing again and Down arrow reach the result; Enter follows it.
    await page.keyboard.press('Escape');
    await expect.poll(() => field.inputValue()).toBe('');
    expect(await page.locator('.news-search-results').isHidden()).toBe(true);
    await page.keyboard.type('hello');
    await result.waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => result.evaluate((link) => link === document.activeElement)).toBe(true);
    await Promise.all([page.waitForURL(`${url}/news/hello-world`), page.keyboard.press('Enter')]);

    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations).toEqual([]);
    expect(errors.filter((error) => /Content.Security.Policy|Refused to|wasm/i.test(error))).toEqual([]);
  });

  it("serves the index with its types and the site's headers, and keeps other pages' policy without WebAssembly", async () => {
    const news = await fetch(`${url}/news`);
    const other = await fetch(`${url}/about`);
    const article = await fetch(`${url}/news/hello-world`);
    expect(news.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    for (const response of [other, article]) {
      expect(response.headers.get('content-security-policy')).not.toContain('wasm-unsafe-eval');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    const worker = await fetch(`${url}/pagefind/pagefind-worker.js`);
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(worker.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    expect(worker.headers.get('x-content-type-options')).toBe('nosniff');
    const wasm = await fetch(`${url}/pagefind/wasm.en.pagefind`);
    expect(wasm.status).toBe(200);
    // Pagefind's own compressed files go as bytes: the browser must not unpack them on the way.
    expect(wasm.headers.get('content-type')).toBe('application/octet-stream');
    expect(wasm.headers.get('content-encoding')).toBeNull();
  });
});

describe('the news search under ssg dev, in Chromium', () => {
  const session = realSiteInDev();

  it('finds a word saved a moment ago: the index is made when the search asks for it', async () => {
    const { site, dev, browser } = session;
    await dev.appendAndReload(site.file('content/news/hello-world.md'), '\nA wombatine word, saved in dev.\n');
    const { page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${dev.url}/news`, { waitUntil: 'networkidle' });
    await page.getByLabel('Search the news').fill('wombatine');
    await page.locator('.news-search-results a', { hasText: 'Hello world' }).waitFor();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'found' }).textContent())
      .toBe('1 article found.');
    expect(errors).toEqual([]);
  }, 60_000);
});
