import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, never a downloaded browser, with everything that talks to the network off. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}; run "apt-get install -y chromium" (npm test does it as root).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface PageWithLog {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/**
 * A page in a context of its own, closed when the test that opened it ends: a page left open goes
 * on running its timers and islands, and on two cores every open page slows the ones under test.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<PageWithLog> {
  const context = await browser.newContext(options);
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // A failed load names no URL in its text; its location does, so a failure says what failed.
    const { url } = message.location();
    if (message.type() === 'error')
      errors.push(
        message.text().startsWith('Failed to load resource') && url ? `${message.text()} (${url})` : message.text(),
      );
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/**
 * Wait until the islands that hydrate by themselves (at load or when idle) are live. Islands that
 * wait to be visible: see waitForIsland; those that wait for interaction hydrate on the first one.
 */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '[data-island]:not([data-hydrate="visible"]):not([data-hydrate="interaction"])',
      ),
    ].every((element) => element.dataset.hydrated === 'true'),
  );
}

/**
 * Scrolls the island that contains `locator` into view and waits until it is live; one that waits
 * for interaction is reached for (hovered) first.
 */
export async function waitForIsland(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const strategy = await locator.evaluate((element) => element.closest<HTMLElement>('[data-island]')?.dataset.hydrate);
  if (strategy === 'interaction') await locator.hover();
  await locator.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const island = element.closest<HTMLElement>('[data-island]');
        if (!island) throw new Error('not inside an island');
        const check = () => (island.dataset.hydrated === 'true' ? resolve() : requestAnimationFrame(check));
        check();
      }),
  );
}

/**
 * Wakes every lazily hydrated island, then waits for all: each island that waits to be visible is
 * scrolled into view in turn (as a reader scrolling down would bring it), rather than painting the
 * whole page step by step; those that wait for interaction are reached for.
 */
export async function hydrateEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const island of document.querySelectorAll<HTMLElement>('[data-island][data-hydrate="visible"]')) {
      if (island.dataset.hydrated) continue;
      (island.firstElementChild ?? island).scrollIntoView({ block: 'center' });
      await frame();
    }
    window.scrollTo(0, 0);
  });
  // Islands that wait for interaction are reached for until the loader (fetched on the first
  // interaction) has taken them over and they are live.
  await page.waitForFunction(
    () => {
      const islands = [...document.querySelectorAll<HTMLElement>('[data-island]')];
      for (const island of islands.filter(
        (element) => element.dataset.hydrate === 'interaction' && !element.dataset.hydrated,
      )) {
        island.firstElementChild?.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
      }
      return islands.every((element) => element.dataset.hydrated === 'true');
    },
    undefined,
    { polling: 100 },
  );
}
