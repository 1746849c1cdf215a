import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openPage } from './helpers/browser.ts';
import { realSiteInDev } from './helpers/site.ts';

const SHOTS = process.env.SSG_SHOTS_DIR;

/** The editor in a page that may reach 127.0.0.1 only, with every CSP violation and stray request noted. */
async function openEditor(browser: Browser, url: string, width = 1280) {
  const { page, errors } = await openPage(browser, { viewport: { width, height: 900 } });
  const offLoopback: string[] = [];
  await page.context().route('**/*', (route) => {
    const { hostname, protocol } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || protocol === 'blob:' || protocol === 'data:') return route.continue();
    offLoopback.push(route.request().url());
    return route.abort();
  });
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await page.goto(`${url}/admin/`);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('Collections').waitFor();
  const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  return { page, errors, offLoopback, violations };
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name), fullPage: false });
}

/** Publishes the entry open in the editor, and waits for the editor to say so. */
async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByText('Publish now').click();
  await page
    .getByText(/changes saved/i)
    .first()
    .waitFor({ timeout: 20_000 });
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const page200 = (url: string, text: string) => async () => {
  const response = await fetch(url).catch(() => undefined);
  return response?.ok && (await response.text()).includes(text) ? true : undefined;
};

describe('the content editor at /admin, under ssg dev', () => {
  const session = realSiteInDev();

  it('lists the articles, writes a new one with a tag and an image into its bundle, and dev publishes it', async () => {
    const { site, dev, browser } = session;
    const { page, errors, offLoopback, violations } = await openEditor(browser, dev.url);
    await page.getByText('Hello world').first().waitFor();
    await shot(page, 'admin-list-1280.png');
    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'admin-list-390.png');
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    await page.locator('a[href$="/collections/news/new"]').click();
    await page.locator('input[id^="title-field"]').fill('Written in the editor');
    await page.getByRole('button', { name: 'Add tags' }).click();
    await page.locator('input[id^="item-field"]').last().fill('editing');
    // The share image: uploaded through the media library, saved beside the article.
    await page.getByRole('button', { name: 'Choose an image' }).click();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: /Choose selected/i }).click();
    await page.locator('input[id^="imageAlt-field"]').fill('A blue square');
    const body = page.locator('[data-slate-editor="true"]');
    await body.click();
    await page.keyboard.type('Published from the editor without git.');
    await shot(page, 'admin-article-editor-1280.png');
    await publish(page);

    const file = path.join(site.dir, 'content', 'news', 'written-in-the-editor', 'index.md');
    await until(() => existsSync(file), file);
    const text = await site.read('content/news/written-in-the-editor/index.md');
    const [, front, markdown] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)!;
    const data = parse(front!) as Record<string, unknown>;
    expect(data).toMatchObject({ title: 'Written in the editor', tags: ['editing'], image: 'chart.png' });
    expect(String(data.date)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(markdown).toContain('Published from the editor without git.');
    expect(existsSync(path.join(path.dirname(file), 'chart.png'))).toBe(true);

    expect(offLoopback).toEqual([]);
    expect(await violations()).toEqual([]);
    expect(errors.filter((line) => /Content Security Policy/.test(line))).toEqual([]);
    await until(page200(`${dev.url}/news/written-in-the-editor`, 'Published from the editor without git.'), 'the page');
    if (SHOTS) {
      await page.goto(`${dev.url}/news/written-in-the-editor`);
      await shot(page, 'article-from-editor-1280.png');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'article-from-editor-390.png');
    }
  });

  /** Inserts an image into the body through its "+" menu → Image, uploaded through the media library. */
  async function addBodyImage(page: Page, name: string, color: string): Promise<{ block: Locator; bytes: Buffer }> {
    const body = page.locator('[data-slate-editor="true"]');
    await page.locator('button[title="Add Component"]').click();
    await page.getByRole('menuitem', { name: 'Image' }).click();
    const block = body.locator('[aria-label="object field"]').last();
    await block.getByRole('button', { name: 'Choose an image' }).click();
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
      .png()
      .toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'image/png', buffer: bytes });
    await page.getByRole('button', { name: /Choose selected/i }).click();
    await block.getByRole('button', { name: 'Choose different image' }).waitFor();
    return { block, bytes };
  }

  it('puts an image into the body through its "+" → Image, saved beside the article, and dev shows it', async () => {
    const { site, dev, browser } = session;
    const { page, errors, offLoopback, violations } = await openEditor(browser, dev.url);
    await page.locator('a[href$="/collections/news/new"]').click();
    await page.locator('input[id^="title-field"]').fill('A picture in the body');
    await page.locator('[data-slate-editor="true"]').click();
    await page.keyboard.type('Above the picture.');
    const { block, bytes } = await addBodyImage(page, 'diagram.png', '#cc6633');
    // Typed key by key, as staff do: the fields sit inside the rich-text editor's own element.
    await block.locator('input[id^="alt-field"]').pressSequentially('Two validators side by side');
    await block.locator('input[id^="title-field"]').pressSequentially('Our two nodes');
    await shot(page, 'admin-body-image-1280.png');
    await publish(page);

    const dir = path.join(site.dir, 'content', 'news', 'a-picture-in-the-body');
    await until(() => existsSync(path.join(dir, 'index.md')), 'the article');
    const text = await site.read('content/news/a-picture-in-the-body/index.md');
    // What Decap's image component writes: the file's name, relative to the article, beside it.
    expect(text).toContain('Above the picture.\n\n![Two validators side by side](diagram.png "Our two nodes")\n');
    expect(readFileSync(path.join(dir, 'diagram.png')).equals(bytes)).toBe(true);

    await until(
      page200(`${dev.url}/news/a-picture-in-the-body`, 'alt="Two validators side by side"'),
      'the article with its image',
      15_000,
    );
    await page.goto(`${dev.url}/news/a-picture-in-the-body`);
    const image = page.locator('article picture img[alt="Two validators side by side"]');
    await image.waitFor();
    expect(await image.getAttribute('title')).toBe('Our two nodes');
    // Served by dev and decoded (its natural width is the srcset's, scaled to the sizes: not 64).
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(page, 'article-body-image-1280.png');

    expect(offLoopback).toEqual([]);
    expect(await violations()).toEqual([]);
    expect(errors.filter((line) => /Content Security Policy/.test(line))).toEqual([]);
  });

  it('publishes a body image left without alt text, and dev names ImageAltMissing over the page', async () => {
    const { site, dev, browser } = session;
    const { page } = await openEditor(browser, dev.url);
    await page.locator('a[href$="/collections/news/new"]').click();
    await page.locator('input[id^="title-field"]').fill('No words for it');
    await page.locator('[data-slate-editor="true"]').click();
    await page.keyboard.type('Below, a picture.');
    await addBodyImage(page, 'unsaid.png', '#33cc66');
    // The editor does not ask for the alt text: it saves, and says only that it saved.
    const from = dev.stdout.length;
    await publish(page);

    await until(() => existsSync(path.join(site.dir, 'content/news/no-words-for-it/index.md')), 'the article');
    expect(await site.read('content/news/no-words-for-it/index.md')).toContain('\n![](unsaid.png)\n');
    // The page is not built (404); dev's overlay on it names the error, with the file and line.
    const { page: reader } = await openPage(browser);
    await reader.goto(`${dev.url}/news/no-words-for-it`);
    const alert = reader.locator('#ssg-dev-overlay [role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain(
      '[ImageAltMissing] content/news/no-words-for-it/index.md:8An image has no alt textThe image "unsaid.png" has no alt text.',
    );
    await dev.waitForOutput(
      /\[ImageAltMissing\][^\n]*\n\s*content\/news\/no-words-for-it\/index\.md:8: /,
      from,
      15_000,
    );
    await shot(reader, 'article-body-image-no-alt-1280.png');
    // The editor itself carries no overlay and no reload: the form that fixes the mistake stays
    // usable, and nothing being written is lost to a reload.
    expect(await page.locator('#ssg-dev-overlay').count()).toBe(0);
    expect(await page.locator('script[data-ssg-dev]').count()).toBe(0);
    await page
      .getByRole('button', { name: /Publish/ })
      .first()
      .waitFor();

    // Taken away, dev builds again, and the overlay goes: the tests after this one need a good build.
    await page.context().close();
    await site.remove('content/news/no-words-for-it');
    await reader.locator('#ssg-dev-overlay').waitFor({ state: 'detached', timeout: 30_000 });
  });

  it("lists each language's articles apart, and writes a German one into the German folder", async () => {
    const { site, dev, browser } = session;
    const { page, offLoopback, violations } = await openEditor(browser, dev.url);
    // The English list holds no German article, though Decap reads two levels of content/news.
    await page.locator('a[href$="/collections/news"]').first().click();
    await page.getByText('Hello world').first().waitFor();
    expect(await page.getByText('Hallo Welt').count()).toBe(0);
    await page.locator('a[href$="/collections/news-de"]').first().click();
    await page.getByText('Hallo Welt').first().waitFor();
    expect(await page.getByText('Hello world').count()).toBe(0);

    await page.locator('a[href$="/collections/news-de/new"]').click();
    await page.locator('input[id^="title-field"]').fill('Im Editor geschrieben');
    await page.locator('[data-slate-editor="true"]').click();
    await page.keyboard.type('Ohne Git veröffentlicht.');
    await publish(page);
    const file = 'content/news/de/im-editor-geschrieben/index.md';
    await until(() => existsSync(site.file(file)) || undefined, file);
    await until(page200(`${dev.url}/de/news/im-editor-geschrieben`, 'Im Editor geschrieben'), 'the German article');
    expect(readFileSync(site.file(file), 'utf8')).toMatch(
      /^---\ntitle: Im Editor geschrieben\n[\s\S]*Ohne Git veröffentlicht\.\n$/,
    );
    // Listed in German only.
    await until(page200(`${dev.url}/de/news`, 'Im Editor geschrieben'), 'the German list');
    expect(await (await fetch(`${dev.url}/news`)).text()).not.toContain('Im Editor geschrieben');
    expect(offLoopback).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('edits a network card, and /networks shows the change', async () => {
    const { site, dev, browser } = session;
    const { page, offLoopback, violations } = await openEditor(browser, dev.url);
    await page.locator('a[href$="/collections/data-networks"]').click();
    await page.locator('a[href$="/collections/data-networks/entries/networks"]').click();
    // The list's items start collapsed: the button in Celo's top bar opens it.
    const celo = page.locator('text="Celo" >> visible=true').first().locator('..');
    await celo.locator('button').first().click();
    await page.locator('input[id^="noteTitle-field"]').first().fill('Track record since 2022');
    await publish(page);

    await until(page200(`${dev.url}/networks`, 'Track record since 2022'), '/networks with the new note title');
    const networks = parse(await site.read('content/networks.yaml')) as Array<{ name: string; noteTitle: string }>;
    expect(Array.isArray(networks)).toBe(true);
    expect(networks[0]).toMatchObject({ name: 'Celo', noteTitle: 'Track record since 2022' });
    // Written in the schema's order, the file still a list at its root.
    expect(Object.keys(networks[0]!).slice(0, 3)).toEqual(['name', 'status', 'logo']);
    expect(offLoopback).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('lists MDX articles apart, and saves a changed title with the MDX body as it was, byte for byte', async () => {
    const { site, dev, browser } = session;
    const body = [
      "import Note from './note.tsx';",
      '',
      '## Counted {2 * 21} times',
      '',
      '{/* Not for readers. */}',
      '<Note kind="info">A *component*, not HTML: {"<b>"} stays text.</Note>',
      '',
    ].join('\n');
    await site.write(
      'content/news/written-in-mdx/note.tsx',
      'export default function Note({ children }: { kind?: string; children?: React.ReactNode }) {\n  return <p className="note">{children}</p>;\n}\n',
    );
    await site.write(
      'content/news/written-in-mdx/index.mdx',
      `---\ntitle: Written in MDX\ndate: "2025-02-01"\nexcerpt: An article with a component.\n---\n${body}`,
    );
    await until(page200(`${dev.url}/news/written-in-mdx`, '<em>component</em>'), 'the MDX article').catch((error) => {
      throw new Error(`${error}\n${dev.stdout}\n${dev.stderr}`);
    });
    const { page, offLoopback, violations } = await openEditor(browser, dev.url);
    // Its own list: Decap reads one extension a folder collection, and News holds the .md files.
    await page.locator('a[href$="/collections/news-mdx"]').click();
    await page.getByText('Articles written in MDX').waitFor();
    expect(await page.locator('a[href$="/collections/news-mdx/new"]').count()).toBe(0);
    await page.locator('a[href$="/collections/news-mdx/entries/written-in-mdx/index"]').click();
    const title = page.locator('input[id^="title-field"]');
    await title.waitFor();
    expect(await title.inputValue()).toBe('Written in MDX');
    // The body is code: no Markdown editor to rewrite it, and no delete.
    expect(await page.locator('[data-slate-editor="true"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await title.fill('Written in MDX, retitled');
    await publish(page);

    const file = 'content/news/written-in-mdx/index.mdx';
    const text = await until(async () => {
      const read = await site.read(file);
      return read.includes('retitled') ? read : undefined;
    }, 'the saved article');
    const [, front, saved] = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(text)!;
    expect(parse(front!)).toEqual({
      title: 'Written in MDX, retitled',
      date: '2025-02-01',
      excerpt: 'An article with a component.',
    });
    expect(saved).toBe(body);
    await until(page200(`${dev.url}/news/written-in-mdx`, 'Written in MDX, retitled'), 'the retitled page');
    expect(offLoopback).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('refuses what the editor writes as a build refuses it: a bad date is the same named error', async () => {
    const { site, dev, browser } = session;
    const config = (await (await fetch(`${dev.url}/admin/config.json`)).json()) as { local_backend: { url: string } };
    expect(new URL(config.local_backend.url).hostname).toBe('127.0.0.1');
    const from = dev.stdout.length;
    // What the editor sends its local backend when an entry is published.
    const entry = {
      slug: 'bad-date',
      path: 'content/news/bad-date/index.md',
      raw: '---\ntitle: Bad\ndate: 2025-13-45\n---\nBody.\n',
    };
    const response = await fetch(config.local_backend.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: dev.url },
      body: JSON.stringify({
        action: 'persistEntry',
        params: {
          branch: 'main',
          entry,
          assets: [],
          options: { commitMessage: 'Create bad date', useWorkflow: false, status: 'draft', collectionName: 'news' },
        },
      }),
    });
    expect(response.status).toBe(200);
    await dev.waitForOutput(
      /\[FrontMatterFieldInvalid\][^\n]*\n\s*content\/news\/bad-date\/index\.md:\d+: date "2025-13-45" is not a date/,
      from,
      30_000,
    );
    await site.remove('content/news/bad-date');
  });
});
