// A file the site draws (files() in its definition: share cards) at the path of a page is refused
// by `build` and by dev mode alike, with the same problems: written one after the other, the page
// or the drawn file would silently be lost.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblems } from '../src/dev/dev.ts';
import { build } from '../src/pipeline/build.ts';
import { createIncrementalBuild, type IncrementalBuild } from '../src/pipeline/incremental.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const DRAWN = '/share/${article.slug}.png';

/** The fixture with a page at /card.png and a drawn file per article (at `drawnAt`) and at /card.png when `card`. */
function withDrawnFiles(source: string, drawnAt: string, card: boolean): string {
  const files = `files: ({ articles }) => [...articles.map((article) => ({ path: \`${drawnAt}\`, key: article.title, render: () => new TextEncoder().encode(article.title) }))${
    card ? ", { path: '/card.png', key: 'card', render: () => new TextEncoder().encode('card') }" : ''
  }],`;
  return source
    .replace('export default defineSite({', `export default defineSite({\n  ${files}`)
    .replace(
      "    { path: '/404',",
      "    { path: '/card.png', page: About, head: () => ({ title: 'Card' }) },\n    { path: '/404',",
    );
}

describe('a drawn file at the path of a page', () => {
  let site: TempSite;
  let dev: IncrementalBuild;
  let original: string;
  const setDrawn = (drawnAt: string, card: boolean) =>
    site.write('site/index.tsx', withDrawnFiles(original, drawnAt, card));
  const buildProblems = () =>
    build({ root: site.dir, outDir: 'dist', warn: () => {} }).then(() => [], describeProblems);

  beforeAll(async () => {
    site = await copySite(fixture);
    original = readFileSync(site.file('site/index.tsx'), 'utf8');
    await setDrawn(DRAWN, false);
    dev = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    await dev.initial();
  }, 120_000);
  afterAll(async () => {
    await dev?.dispose();
    await site?.dispose();
  });

  it('is refused by dev as by build, each clash named, and dev recovers once it moves', async () => {
    await setDrawn('/news/${article.slug}.html', true);
    const problems = await dev.update([site.file('site/index.tsx')]).then(() => [], describeProblems);
    const clash = (message: string) => ({ code: 'GeneratedFileClash', where: 'site/index.tsx', message });
    expect(problems.map(({ code, where, message }) => ({ code, where, message }))).toEqual([
      clash(
        'The generated file /news/second-post.html has the same path as news/second-post.html, the page /news/second-post.',
      ),
      clash(
        'The generated file /news/first-post.html has the same path as news/first-post.html, the page /news/first-post.',
      ),
      clash('The generated file /card.png has the same path as the page /card.png.'),
    ]);
    expect(await buildProblems()).toEqual(problems);

    await setDrawn(DRAWN, false);
    await dev.update([site.file('site/index.tsx')]);
    expect(readFileSync(path.join(dev.outDir, 'share/first-post.png'), 'utf8')).toBe('First post');
    expect(await buildProblems()).toEqual([]);
  });
});
