// Screenshots of every route at phone and desktop widths, light and dark, for a look as a
// visitor would. Usage: npm run screenshots [-- --dir dist --out screenshots --routes /news/a,/news/b]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hydrateEverything, launchBrowser } from '../tests/helpers/browser.ts';
import { serveSite } from '../tests/helpers/server.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'dist' },
    out: { type: 'string', default: 'screenshots' },
    routes: { type: 'string' },
  },
});
const dir = path.resolve(values.dir!);
const out = path.resolve(values.out!);

// Every route of the spec plus an unknown path (the host's not-found page), or the ones asked for.
const routes = values.routes?.split(',') ?? [
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

const shotName = (urlPath: string, width: number, scheme: string) =>
  `${urlPath === '/' ? 'home' : urlPath.slice(1).replace(/\//g, '_')}-${width}-${scheme}.png`;

const server = await serveSite(dir);
const browser = await launchBrowser();
await mkdir(out, { recursive: true });
try {
  for (const scheme of schemes) {
    for (const width of widths) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: 1,
        colorScheme: scheme,
      });
      // tsx compiles this script keeping function names (`__name(fn, "name")`): the functions it
      // hands the browser need that helper there too.
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      const page = await context.newPage();
      for (const urlPath of routes) {
        await page.goto(server.url + urlPath);
        await hydrateEverything(page);
        await page.evaluate(() => document.fonts.ready);
        const name = shotName(urlPath, width, scheme);
        await page.screenshot({ path: path.join(out, name), fullPage: true });
        console.log(path.join(values.out!, name));
      }
      // The mobile menu, opened, where the toggle shows (phone widths).
      const toggle = page.locator('.menu-toggle');
      if (await toggle.isVisible()) {
        await toggle.click();
        await page.locator('#site-menu:popover-open').waitFor();
        const name = shotName('/menu-open', width, scheme);
        await page.screenshot({ path: path.join(out, name) });
        console.log(path.join(values.out!, name));
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
