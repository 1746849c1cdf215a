// A page that reads the list by index only (`articles[0]`, "the latest article") shows another
// article once the order changes: a build keeping .cache renders it again, as a cold build does,
// whether the list is the whole list, a collection's or a locale's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

const LATEST = `{ path: '/latest', page: ({ articles }: PageProps) => <p id="latest">{articles[0]?.title}</p>, head: () => ({ title: 'Latest' }) },
    { path: '/404', page: () => <h1>404</h1>, head: () => ({ title: '404' }) },`;

const siteCode = (extra: string) => `import { defineCollection, defineSite, type PageProps } from 'ssg';
export default defineSite({
  ${extra}
  routes: [
    ${LATEST}
  ],
});
`;

const post = (title: string, date: string) => `---\ntitle: ${title}\ndate: "${date}"\n---\nText.\n`;

async function latestAfterReorder(
  extra: string,
  files: Record<string, string>,
): Promise<{ kept: string; cold: string }> {
  const site = await copySite(fixture);
  sites.push(site);
  await site.remove('content/news');
  await site.remove('site/islands');
  await site.write('site/index.tsx', siteCode(extra));
  for (const [file, text] of Object.entries(files)) await site.write(file, text);
  await site.write('content/news/older.md', post('Older', '2025-01-01'));
  await site.write('content/news/newer.md', post('Newer', '2025-01-02'));
  const first = await site.run(['build']);
  expect(first.code, first.stderr).toBe(0);
  // The older article becomes the newest: the list's order changes, no field the page read does.
  await site.write('content/news/older.md', post('Older', '2025-03-01'));
  const second = await site.run(['build']);
  expect(second.code, second.stderr).toBe(0);
  const cold = await copySite(site.dir, ['dist', 'node_modules', '.cache']);
  sites.push(cold);
  const third = await cold.run(['build']);
  expect(third.code, third.stderr).toBe(0);
  const latest = (dir: TempSite) =>
    /<p id="latest">([^<]*)/.exec(readFileSync(dir.file('dist/latest.html'), 'utf8'))?.[1] ?? '';
  return { kept: latest(site), cold: latest(cold) };
}

const sites: TempSite[] = [];
afterEach(async () => {
  for (const site of sites.splice(0)) await site.dispose();
});

describe('a page that reads the latest article by index, after the order changed', () => {
  it('in a locale (i18n): the page is rendered again', async () => {
    const { kept, cold } = await latestAfterReorder(`i18n: { locales: ['en', 'de'], defaultLocale: 'en' },`, {
      'content/news/de/newer.md': post('Neuer', '2025-01-02'),
    });
    expect(cold).toBe('Older');
    expect(kept).toBe(cold);
  });

  it('with two collections: the page is rendered again', async () => {
    const { kept, cold } = await latestAfterReorder(
      `collections: { news: defineCollection({}), docs: defineCollection({}) },`,
      { 'content/docs/doc.md': post('Doc', '2025-01-01') },
    );
    expect(cold).toBe('Older');
    expect(kept).toBe(cold);
  });

  it('with one collection and no locales: the page is rendered again', async () => {
    const { kept, cold } = await latestAfterReorder('', {});
    expect(cold).toBe('Older');
    expect(kept).toBe(cold);
  });
});
