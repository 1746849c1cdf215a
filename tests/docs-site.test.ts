// The docs as a site built by ssg itself (`npm run docs`): every page of docs/ gets its page, the
// navigation lists them, and the build's own checks (every link) pass.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/project.ts';

const run = promisify(execFile);

describe('npm run docs', () => {
  let out: string;
  beforeAll(async () => {
    out = path.join(await mkdtemp(path.join(tmpdir(), 'ssg-docs-')), 'site');
    await run(process.execPath, ['--import', 'tsx', path.join('scripts', 'docs-site.ts'), '--out', out], {
      cwd: repoRoot,
    });
  }, 120_000);
  afterAll(() => rm(path.dirname(out), { recursive: true, force: true }));

  it('writes a page for every page of docs/, each listed in the navigation', async () => {
    const pages = (await readdir(path.join(repoRoot, 'docs'), { recursive: true }))
      .filter((file) => file.endsWith('.md') && file !== 'index.md')
      .map((file) => path.basename(file, '.md'));
    const home = await readFile(path.join(out, 'index.html'), 'utf8');
    for (const page of pages) {
      const html = await readFile(path.join(out, `${page}.html`), 'utf8');
      expect(html, page).toContain('<nav class="pages" id="pages" aria-label="Documentation">');
      expect(html, page).toContain(`<a href="/${page}" aria-current="page">`);
      expect(home, page).toContain(`<a href="/${page}">`);
    }
    expect(home).toContain('<h1>Documentation</h1>');
  });

  it('indexes every page for the search box each page carries', async () => {
    const entry = JSON.parse(await readFile(path.join(out, 'pagefind', 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    const pages = (await readdir(path.join(repoRoot, 'docs'), { recursive: true })).filter((file) =>
      file.endsWith('.md'),
    );
    expect(Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0)).toBe(pages.length);
    const mdx = await readFile(path.join(out, 'mdx.html'), 'utf8');
    expect(mdx).toContain('Search the docs');
    // Its count speaks of pages, not of the news's articles.
    expect(mdx).toContain('&quot;noun&quot;:{&quot;one&quot;:&quot;page&quot;,&quot;many&quot;:&quot;pages&quot;}');
  });

  it('keeps each heading as its title and leads links out of docs/ to the repository', async () => {
    const collections = await readFile(path.join(out, 'collections.html'), 'utf8');
    expect(collections).toContain('<title>Collections: more than one kind of content | ssg documentation</title>');
    expect(collections.match(/<h1>/g)).toHaveLength(1);
    const ci = await readFile(path.join(out, 'ci.html'), 'utf8');
    expect(ci).toMatch(/href="https:\/\/github\.com\/example\/ssg\/blob\/main\/scripts\/bench\/RESULTS\.md"/);
  });
});
