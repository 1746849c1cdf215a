import { rename } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { DevProcess } from './helpers/dev-process.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

describe('ssg dev in a real browser', () => {
  let site: TempSite;
  let dev: DevProcess;
  let browser: Browser;

  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    dev = await DevProcess.start(site.dir);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await site?.dispose();
  });

  it('reloads the open page by itself after an edit', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${dev.url}/news/first-post`);
    await page.waitForFunction(() => document.querySelector('script[data-ssg-dev]'));
    // A marker that only survives if the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the event stream is open

    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', original.replace('# Hello', '# Hello, reloaded'));
    await page.waitForFunction(
      () => document.querySelector('article h1 + time + div h1')?.firstChild?.textContent === 'Hello, reloaded',
    );
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBeUndefined();
  });

  it('shows a build error as an overlay with file, line and message, and recovers on the next good save', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${dev.url}/about`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const original = await site.read('site/index.tsx');
    // Saved atomically (write beside, rename over), as in the style test below: an in-place write
    // can be seen half done, an empty site file whose own error the overlay would show first.
    const save = async (code: string) => {
      await site.write('site/index.tsx.tmp', code);
      await rename(site.file('site/index.tsx.tmp'), site.file('site/index.tsx'));
    };
    await save(original.replace('return <h1>About us</h1>;', "throw new Error('about exploded');"));

    const overlay = page.locator('#ssg-dev-overlay');
    await overlay.locator('[role="alert"]').waitFor();
    const text = await overlay.locator('[role="alert"]').textContent();
    expect(text).toMatch(/Build failed/);
    expect(text).toMatch(/\[PageRenderFailed\] site\/index\.tsx:\d+/);
    expect(text).toContain('The page /about failed to render: about exploded');

    await save(original.replace('About us', 'About, fixed'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About, fixed');
    expect(await page.locator('#ssg-dev-overlay').count()).toBe(0);
  });

  it('swaps the style sheet in place when only styles change', async () => {
    // Under load the fix saved by the last test may be rebuilt twice: its late reload would look
    // like the style change reloading the page. Wait until dev has gone quiet.
    const events = await dev.events();
    await events.settle();
    events.close();
    const { page } = await openPage(browser);
    await page.goto(`${dev.url}/about`);
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const original = await site.read('site/styles/index.css');
    // Saved as editors that save atomically do (write beside, rename over): an in-place write can
    // be seen half done (an empty style sheet is a page without one, which reloads).
    await site.write('site/styles/index.css.tmp', `${original}\nh1 { color: rgb(1, 2, 3); }\n`);
    await rename(site.file('site/styles/index.css.tmp'), site.file('site/styles/index.css'));
    await page.waitForFunction(() => getComputedStyle(document.querySelector('h1')!).color === 'rgb(1, 2, 3)');
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  });
});
