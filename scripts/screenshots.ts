// Screenshots of every built page at a phone and a desktop width, for a look as a visitor would.
// Usage: npm run screenshots [-- --dir dist --out screenshots]
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hydrateEverything, launchBrowser } from '../tests/helpers/browser.ts';
import { serveSite } from '../tests/helpers/server.ts';

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'dist' }, out: { type: 'string', default: 'screenshots' } } });
const dir = path.resolve(values.dir!);
const out = path.resolve(values.out!);

async function pagePaths(): Promise<string[]> {
  const files = await readdir(dir, { recursive: true });
  return files
    .filter((file) => file.endsWith('.html'))
    .map((file) => `/${file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`)
    .sort();
}

const server = await serveSite(dir);
const browser = await launchBrowser();
await mkdir(out, { recursive: true });
try {
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const urlPath of await pagePaths()) {
      await page.goto(server.url + urlPath);
      await hydrateEverything(page);
      const name = `${urlPath === '/' ? 'home' : urlPath.slice(1).replace(/\//g, '_')}-${width}.png`;
      await page.screenshot({ path: path.join(out, name), fullPage: true });
      console.log(path.join(values.out!, name));
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
