import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, waitForIslands } from './helpers/browser.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { serveSite, type TestServer } from './helpers/server.ts';

describe('islands in a real browser', () => {
  let site: TempSite;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    expect((await site.run(['build'])).code).toBe(0);
    server = await serveSite(site.file('dist'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.dispose();
  });

  it('shows the server-rendered island before any script runs', async () => {
    const { page } = await openPage(browser, { javaScriptEnabled: false });
    await page.goto(`${server.url}/`);
    await expect(page.locator('[data-island="counter"] span').textContent()).resolves.toBe('2');
  });

  it('hydrates the island in place without mismatches, and it responds', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/`);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Add one' }).click();
    await expect(page.locator('[data-island="counter"] span').textContent()).resolves.toBe('3');
    expect(errors).toEqual([]);
  });

  it("a widget that throws shows 'Unexpected Application Error!' in its place; the page stays", async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/`);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Explode' }).click();
    const alert = page.locator('[data-island="bomb"] [role="alert"]');
    await expect(alert.locator('h2').textContent()).resolves.toBe('Unexpected Application Error!');
    await expect(alert.locator('p').textContent()).resolves.toBe('The bomb went off');
    expect(await page.getByRole('button', { name: 'Explode' }).count()).toBe(0);
    // The rest of the page, other islands included, is untouched and still works.
    expect(await page.locator('#after-bomb').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Add one' }).click();
    await expect(page.locator('[data-island="counter"] span').textContent()).resolves.toBe('3');
    expect(errors.some((error) => error.includes('The bomb went off'))).toBe(true);
  });

  it("reports 'Root element not found' when an island's element is gone before its turn", async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/`);
    await waitForIslands(page);
    // The 'late' island waits to be scrolled into view; take it away first, then wake it.
    await page.evaluate(() => {
      const element = document.querySelector('[data-island="late"]')!;
      element.remove();
      element.dispatchEvent(new Event('focusin'));
    });
    await expect.poll(() => errors.join('\n')).toContain('Root element not found');
  });
});
