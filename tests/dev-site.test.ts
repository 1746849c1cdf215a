import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevProcess } from './helpers/dev-process.ts';
import type { TempSite } from './helpers/project.ts';
import { realSiteCopy } from './helpers/site.ts';

describe('ssg dev on the real site', () => {
  let site: TempSite;
  let dev: DevProcess;

  beforeAll(async () => {
    site = await realSiteCopy();
    dev = await DevProcess.start(site.dir);
  });
  afterAll(async () => {
    await dev?.stop();
    await site?.dispose();
  });

  it('serves pages with the same head as a build, and the generated files', async () => {
    const home = await (await fetch(`${dev.url}/`)).text();
    expect(home).toContain('<meta property="og:title"');
    expect(home).toContain('<script type="application/ld+json">');
    expect((await fetch(`${dev.url}/sitemap.xml`)).status).toBe(200);
    expect(await (await fetch(`${dev.url}/news/feed.xml`)).text()).toContain('<title>Hello world</title>');
  });

  it('an article title edit reaches the news list and the feed', async () => {
    const events = await dev.events();
    const original = await site.read('content/news/hello-world.md');
    await site.write(
      'content/news/hello-world.md',
      original.replace('title: Hello world', 'title: Hello, renamed world'),
    );
    await events.next('reload', (data) => data.pages.includes('/news'));
    await expect.poll(async () => (await fetch(`${dev.url}/news`)).text()).toContain('Hello, renamed world');
    await expect
      .poll(async () => (await fetch(`${dev.url}/news/feed.xml`)).text())
      .toContain('<title>Hello, renamed world</title>');
    events.close();
  });
});
