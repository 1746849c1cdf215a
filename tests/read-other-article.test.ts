// A page handed one article that also shows another's converted fields (a "read next" box with its
// reading time and headings) is rendered while that other article may still be converting: a
// build with the caches kept, and dev after an edit, must show it as converted, as a cold build does.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { createIncrementalBuild } from '../src/pipeline/incremental.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const now = new Date('2026-01-01T12:00:00Z');

/** The fixture, its article page showing the newest other article's reading time and headings. */
async function siteReadingAnother(): Promise<TempSite> {
  const site = await copySite(fixture);
  const index = readFileSync(site.file('site/index.tsx'), 'utf8');
  const page = `function Article({ entry, articles }: PageProps) {
  const article = entry.article as Article;
  const next = articles.find((other) => other.slug !== article.slug);
  return (
    <article>
      <h1>{article.title}</h1>
      <div dangerouslySetInnerHTML={{ __html: article.html }} />
      {next && <aside>{\`Read next: \${next.title}, \${next.readingTime} min, \${next.headings.map((heading) => heading.id).join(' ')}\`}</aside>}
    </article>
  );
}

function NotFound() {`;
  await site.write('site/index.tsx', index.replace(/function Article\([^]*?\n}\n\nfunction NotFound\(\) \{/, page));
  await site.write('content/news/newest.md', body(300, 'Newest head'));
  return site;
}

const body = (words: number, heading: string) =>
  `---\ntitle: Newest\ndate: "2025-06-01"\n---\n\n${'word '.repeat(words)}\n\n## ${heading}\n`;

/** What a cold build (no caches, no output) makes of the site as it is now. */
async function coldPage(site: TempSite, file: string): Promise<string> {
  rmSync(site.file('.cache'), { recursive: true, force: true });
  await build({ root: site.dir, outDir: 'cold', now, warn: () => {} });
  return readFileSync(site.file(`cold/${file}`), 'utf8');
}

describe('a page showing another article than its own', () => {
  let site: TempSite | undefined;
  afterEach(async () => {
    await site?.dispose();
    site = undefined;
  });

  it('shows its converted reading time and headings after an edit, in a build with the caches kept', async () => {
    site = await siteReadingAnother();
    await build({ root: site.dir, outDir: 'dist', now, warn: () => {} });
    expect(readFileSync(site.file('dist/news/first-post.html'), 'utf8')).toContain(
      'Read next: Newest, 2 min, newest-head',
    );
    await site.write('content/news/newest.md', body(1500, 'Head two'));
    await build({ root: site.dir, outDir: 'dist', now, warn: () => {} });
    const kept = readFileSync(site.file('dist/news/first-post.html'), 'utf8');
    expect(kept).toContain('Read next: Newest, 8 min, head-two');
    expect(kept).toBe(await coldPage(site, 'news/first-post.html'));
  });

  it('shows them in dev after each edit of the other article, as a build does', async () => {
    site = await siteReadingAnother();
    const dev = await createIncrementalBuild({
      root: site.dir,
      outDir: '.cache/ssg/dev',
      warn: () => {},
      now: () => now,
    });
    try {
      await dev.initial();
      for (const [words, heading] of [
        [700, 'Head one'],
        [1500, 'Head two'],
        [40, 'Head three'],
      ] as const) {
        await site.write('content/news/newest.md', body(words, heading));
        await dev.update([site.file('content/news/newest.md')]);
        const served = readFileSync(site.file('.cache/ssg/dev/news/first-post.html'), 'utf8');
        expect(served).toContain(
          `Read next: Newest, ${Math.max(1, Math.ceil((words + 2) / 200))} min, ${heading.toLowerCase().replace(' ', '-')}`,
        );
      }
    } finally {
      await dev.dispose();
    }
  });
});
