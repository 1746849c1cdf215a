import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, never a downloaded browser, with everything that talks to the network off. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}; run "apt-get install -y chromium" (npm test does it as root).`);
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

export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<PageWithLog> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
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
    [...document.querySelectorAll<HTMLElement>('[data-island]:not([data-hydrate="visible"]):not([data-hydrate="interaction"])')].every(
      (element) => element.dataset.hydrated === 'true',
    ),
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

/** Scrolls through the whole page so that every lazily hydrated island wakes, then waits for all. */
export async function hydrateEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    window.scrollTo(0, 0);
  });
  // Islands that wait for interaction are reached for until the loader (fetched on the first
  // interaction) has taken them over and they are live.
  await page.waitForFunction(
    () => {
      const islands = [...document.querySelectorAll<HTMLElement>('[data-island]')];
      for (const island of islands.filter((element) => element.dataset.hydrate === 'interaction' && !element.dataset.hydrated)) {
        island.firstElementChild?.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
      }
      return islands.every((element) => element.dataset.hydrated === 'true');
    },
    undefined,
    { polling: 100 },
  );
}
