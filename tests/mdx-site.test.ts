// An MDX article in a site, as a visitor and its author meet it: built, previewed and hydrated in
// Chromium; edited in dev (the article and a component it imports), a mistake shown and gone.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, waitForIslands } from './helpers/browser.ts';
import { DevProcess } from './helpers/dev-process.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { startPreview } from './helpers/preview.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

const ARTICLE = [
  '---',
  'title: Written in MDX',
  'date: "2024-02-01"',
  'excerpt: An article with a component and an island.',
  '---',
  "import Note from './note.tsx';",
  "import Counter from '../../../site/islands/counter.tsx';",
  '',
  '## Counting',
  '',
  '<Note>Counted in the browser.</Note>',
  '',
  '<Counter start={2} />',
  '',
].join('\n');

const NOTE =
  'export default function Note({ children }: { children?: React.ReactNode }) {\n  return <p className="note">{children}</p>;\n}\n';

async function withMdxArticle(site: TempSite): Promise<void> {
  await site.write('content/news/counting/index.mdx', ARTICLE);
  await site.write('content/news/counting/note.tsx', NOTE);
}

describe('an MDX article, built and previewed', () => {
  let site: TempSite;
  let preview: { child: ChildProcess; url: string } | undefined;
  let browser: Browser;

  beforeAll(async () => {
    site = await copySite(fixture);
    await withMdxArticle(site);
    const result = await site.run(['build']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    preview = await startPreview(site.dir);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    preview?.child.kill('SIGTERM');
    await site?.dispose();
  });

  it('shows the component and hydrates the island, with no error and nothing blocked', async () => {
    const { page, errors } = await openPage(browser);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${preview!.url}/news/counting`);
    await expect(page.locator('p.note').textContent()).resolves.toBe('Counted in the browser.');
    await expect(page.locator('h2#counting').count()).resolves.toBe(1);
    await waitForIslands(page);
    const island = page.locator('ssg-island[data-island="counter"]');
    await island.getByRole('button', { name: 'Add one' }).click();
    await expect(island.locator('span').textContent()).resolves.toBe('3');
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
  });

  it('lists the article like a Markdown one, and puts it in the sitemap', async () => {
    const home = await (await fetch(`${preview!.url}/`)).text();
    expect(home).toContain('<a href="/news/counting">Written in MDX</a>');
    expect(await site.read('dist/sitemap.xml')).toContain('/news/counting</loc>');
  });
});

describe('an MDX article in dev', () => {
  it('rebuilds on an edit of the article or of a component it imports, and shows a mistake until fixed', async () => {
    const site = await copySite(fixture);
    await withMdxArticle(site);
    const dev = await DevProcess.start(site.dir);
    try {
      const page = () => fetch(`${dev.url}/news/counting`).then((response) => response.text());
      expect(await page()).toContain('Counted in the browser.');
      const events = await dev.events();
      await events.settle();

      await site.write('content/news/counting/note.tsx', NOTE.replace('className="note"', 'className="note edited"'));
      await events.next('reload', undefined, 30_000);
      expect(await page()).toContain('<p class="note edited">');

      await site.write('content/news/counting/index.mdx', ARTICLE.replace('<Note>', '<Note>\n\nNever closed'));
      const shown = await events.next('build-error', undefined, 30_000);
      expect(JSON.stringify(shown.data)).toContain('MdxInvalid');

      await site.write('content/news/counting/index.mdx', ARTICLE.replace('Counted', 'Now counted'));
      await events.next('reload', undefined, 30_000);
      const html = await page();
      expect(html).toContain('Now counted in the browser.');
      events.close();

      // What dev showed is what a build writes.
      await dev.stop();
      const built = await site.run(['build']);
      expect(built.code, built.stdout + built.stderr).toBe(0);
      const written = await site.read('dist/news/counting.html');
      const article = (text: string) => /<h2 id="counting">[\s\S]*?<\/ssg-island>/.exec(text)?.[0];
      expect(article(written)).toBeDefined();
      expect(article(written)).toBe(article(html));
    } finally {
      await dev.stop();
      await site.dispose();
    }
  });
});

/**
 * Three Markdown articles first in the batch, then an MDX article in `folder` that imports and
 * shows `component` (its default export, named `name`): a failure must name that article.
 */
async function withComponentArticle(site: TempSite, folder: string, name: string, component: string): Promise<void> {
  for (const first of ['a-first', 'b-second', 'c-third'])
    await site.write(`content/news/${first}.md`, `---\ntitle: ${first}\ndate: "2024-01-01"\n---\nText.\n`);
  const file = name.toLowerCase();
  await site.write(`content/news/${folder}/${file}.tsx`, component);
  await site.write(
    `content/news/${folder}/index.mdx`,
    `---\ntitle: ${folder}\ndate: "2024-01-02"\n---\nimport ${name} from "./${file}.tsx";\n\n<${name} />\n`,
  );
}

describe('an MDX article whose code ends the process converting it', () => {
  it('fails the build naming that article, not the first of its batch', async () => {
    const site = await copySite(fixture);
    try {
      await withComponentArticle(
        site,
        'zz-exits',
        'Quits',
        'export default function Quits() {\n  process.exit(3);\n}\n',
      );
      const result = await site.run(['build']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(
        /\[ArticleEndedHelper\][^\n]*\n\s+content\/news\/zz-exits\/index\.mdx: The helper process converting this article ended \(exit code 3\)/,
      );
      expect(result.stderr).not.toContain('a-first');
    } finally {
      await site.dispose();
    }
  });
});

describe('an MDX article whose component throws', () => {
  it('fails the build naming the article; --verbose shows the line of the component that threw', async () => {
    const site = await copySite(fixture);
    try {
      await withComponentArticle(
        site,
        'boom',
        'Chart',
        'export default function Chart(): never {\n  // No data yet.\n  throw new Error("the chart has no data");\n}\n',
      );
      const plain = await site.run(['build']);
      expect(plain.code).not.toBe(0);
      expect(plain.stderr).toMatch(
        /\[MdxRenderFailed\][^\n]*\n\s+content\/news\/boom\/index\.mdx: .*the chart has no data/,
      );
      expect(plain.stderr).not.toContain('caused by');
      const verbose = await site.run(['build', '--verbose']);
      expect(verbose.code).not.toBe(0);
      expect(verbose.stderr).toMatch(
        /caused by: Error: the chart has no data\n\s+at Chart \(\S*content\/news\/boom\/chart\.tsx:3:\d+\)/,
      );
    } finally {
      await site.dispose();
    }
  });
});

describe('a broken draft in dev', () => {
  it('is a warning while it is held back, and the error once it is published', async () => {
    const site = await copySite(fixture);
    const broken = '---\ntitle: Not yet\ndate: "2024-01-02"\ndraft: true\n---\n<Note>\n\nNever closed\n';
    await site.write('content/news/unfinished.mdx', broken);
    const dev = await DevProcess.start(site.dir);
    try {
      expect(await fetch(`${dev.url}/`).then((response) => response.status)).toBe(200);
      expect(dev.stdout + dev.stderr).toMatch(
        /content\/news\/unfinished\.mdx[:\d]*: .*\(a draft, so not published now/,
      );
      const events = await dev.events();
      await events.settle();
      await site.write('content/news/unfinished.mdx', broken.replace('draft: true\n', ''));
      const shown = await events.next('build-error', undefined, 30_000);
      expect(JSON.stringify(shown.data)).toContain('MdxInvalid');
      events.close();
    } finally {
      await dev.stop();
      await site.dispose();
    }
  });
});

describe('an MDX import whose name differs in case from the file', () => {
  it('is reported as a missing file naming the one there is, as Linux hosts and CI see it', async () => {
    const site = await copySite(fixture);
    try {
      await withMdxArticle(site);
      const article = await site.read('content/news/counting/index.mdx');
      await site.write('content/news/counting/index.mdx', article.replace("'./note.tsx'", "'./Note.tsx'"));
      const result = await site.run(['build']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(
        /\[ImportNotFound\][\s\S]*"content\/news\/counting\/Note\.tsx" is imported here, but no such file exists \(there is content\/news\/counting\/note\.tsx: the name's case differs\)/,
      );
    } finally {
      await site.dispose();
    }
  });
});
