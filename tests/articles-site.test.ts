// A fixture site whose articles use code, headings, links between articles, a future and a draft post.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'articles');

describe('articles on a fixture site', () => {
  let site: TempSite;
  let stderr: string;
  beforeAll(async () => {
    site = await copySite(fixture);
    const result = await site.run(['build']);
    stderr = result.stderr;
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
  afterAll(() => site?.dispose());

  it('renders heading ids with anchors and highlighted code, with no inline style', async () => {
    const html = await site.read('dist/news/guide.html');
    expect(html).toContain('<h2 id="set-up">Set-up<a class="heading-anchor"');
    expect(html).toContain('<h2 id="keys">Keys');
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).not.toMatch(/<[^>]+\sstyle=/);
  });

  it('rewrites links to other articles to their URL', async () => {
    expect(await site.read('dist/news/guide.html')).toContain('<a href="older#history">the older post</a>');
    expect(await site.read('dist/news/older.html')).toContain('<a href="guide#set-up">the guide</a>');
  });

  it('keeps safe raw HTML and warns of what the sanitiser removed, with file and line', async () => {
    expect(stderr).toContain('content/news/guide.md:18: the class attribute of <div> removed');
    expect(await site.read('dist/news/guide.html')).toContain('<div>raw</div>');
  });

  it('holds back the future post and leaves out the draft', async () => {
    expect(existsSync(site.file('dist/news/coming-soon.html'))).toBe(false);
    expect(existsSync(site.file('dist/news/unfinished.html'))).toBe(false);
    expect(await site.read('dist/sitemap.xml')).not.toMatch(/coming-soon|unfinished/);
  });

  it('--future and --drafts include them; the draft is noindex and never in the sitemap', async () => {
    const result = await site.run(['build', '--future', '--drafts']);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(site.file('dist/news/coming-soon.html'))).toBe(true);
    // The guide came from the Markdown cache this time: its warning is still given.
    expect(result.stdout).toMatch(/Markdown: 2 converted, 2 from cache/);
    expect(result.stderr).toContain('content/news/guide.md:18: the class attribute of <div> removed');
    const draft = await site.read('dist/news/unfinished.html');
    expect(draft).toContain('<meta name="robots" content="noindex">');
    expect(draft).not.toContain('rel="canonical"');
    const sitemap = await site.read('dist/sitemap.xml');
    expect(sitemap).toContain('/news/coming-soon');
    expect(sitemap).not.toContain('unfinished');
    expect(await site.read('dist/news/guide.html')).not.toContain('noindex');
  }, 120_000);

  it('a link to a heading that does not exist fails the build, naming the file and the link', async () => {
    const broken = await copySite(fixture);
    try {
      const text = await broken.read('content/news/guide.md');
      await broken.write(
        'content/news/guide.md',
        text
          .replace('[keys](#keys)', '[keys](#no-such-heading)')
          .replace('2024/older.md#history', '2024/older.md#gone'),
      );
      const result = await broken.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        '[LinkFragmentMissing] A link points to a heading that does not exist\n  content/news/guide.md:16: The page /news/guide links to #no-such-heading, but /news/guide has no element with the id "no-such-heading".',
      );
      // Quoted as the author wrote it, not as the page has it (older#gone).
      expect(result.stderr).toContain('links to 2024/older.md#gone, but /news/older has no element with the id "gone"');
      expect(existsSync(broken.file('dist/news/guide.html'))).toBe(false);
    } finally {
      await broken.dispose();
    }
  }, 120_000);
});
