// A failed build exits once it has said why: for each kind of failure the pipeline reports, at a
// few articles and at more than the helpers draw for (share cards drawn in helper processes), with
// a cold and a warm cache. The CLI's watchdog would end a build still held a second after its last
// message, and says so: its line must never appear, and no helper may outlive the build.
import { cp, rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { processesUsing, waitFor } from './helpers/tree.ts';

const NOT_THE_SITE = ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib', 'data'];
const WATCHDOG = /still held the process/;

interface Fault {
  code: string;
  /** What the fault writes: path → contents, or a function of the file's contents. */
  files: Record<string, string | ((contents: string) => string)>;
  args?: string[];
}

const article = (title: string, body: string, date = '2025-03-01') =>
  `---\ntitle: ${title}\ndate: "${date}"\nexcerpt: ${title}.\n---\n${body}\n`;

const FAULTS: Record<string, Fault> = {
  'front matter': {
    code: 'FrontMatterFieldInvalid',
    files: { 'content/news/zz-fault.md': article('Fault', 'Text.', 'not a date') },
  },
  'duplicate slug': {
    code: 'ArticleSlugDuplicate',
    files: { 'content/news/more/post-1.md': article('Fault', 'Text.') },
  },
  'article too large': {
    code: 'ArticleTooLarge',
    files: { 'content/news/zz-fault.md': article('Fault', 'word '.repeat(400)) },
    args: ['--max-article-kb', '1'],
  },
  'image without alt': {
    code: 'ImageAltMissing',
    files: { 'content/news/zz-fault.md': article('Fault', '![](/favicon.ico)') },
  },
  'missing image': { code: 'ImageMissing', files: { 'content/news/zz-fault.md': article('Fault', '![foo](/url)') } },
  'broken link': { code: 'LinkBroken', files: { 'content/news/zz-fault.md': article('Fault', '[gone](/nowhere/)') } },
  'missing fragment': {
    code: 'LinkFragmentMissing',
    files: { 'content/news/zz-fault.md': article('Fault', '[there](#nowhere)') },
  },
  'page throws': {
    code: 'PageRenderFailed',
    files: {
      'site/pages/legal.tsx': (source) =>
        source.replace(
          /(export function Legal\([^)]*\) \{)/,
          "$1\n  if (Date.now() > 0) throw new Error('page fault');",
        ),
    },
  },
  'site syntax error': {
    code: 'SiteCompileFailed',
    files: { 'site/pages/legal.tsx': (source) => `${source}\nexport const broken = ;\n` },
  },
};

const sites: TempSite[] = [];
afterAll(async () => {
  for (const site of sites) {
    for (const pid of processesUsing(site.dir)) process.kill(pid, 'SIGKILL');
    await site.dispose();
  }
});

/** A copy of the site with `count` plain articles, built once, its cache kept aside as the warm one. */
async function siteWith(count: number): Promise<TempSite> {
  const site = await copySite(repoRoot, NOT_THE_SITE);
  sites.push(site);
  // Every third shows an image, so a failure can come while images are processed too.
  for (let index = 1; index <= count; index++) {
    const body = `Body of post ${index}.${index % 3 === 0 ? '\n\n![The icon](/apple-touch-icon.png)' : ''}`;
    await site.write(
      `content/news/post-${index}.md`,
      article(`Post ${index}`, body, `2025-01-${String((index % 28) + 1).padStart(2, '0')}`),
    );
  }
  const first = await site.run(['build']);
  expect(first.code, first.stderr).toBe(0);
  await cp(site.file('.cache'), site.file('.cache-warm'), { recursive: true });
  return site;
}

/** Builds with the fault in place (the cache as `cache` says), then puts the site back as it was. */
async function failingBuild(site: TempSite, fault: Fault, cache: 'cold' | 'warm') {
  const originals = new Map<string, string | undefined>();
  for (const [file, contents] of Object.entries(fault.files)) {
    const before = await site.read(file).catch(() => undefined);
    originals.set(file, before);
    const after = typeof contents === 'function' ? contents(before ?? '') : contents;
    expect(after, `the fault changes ${file}`).not.toBe(before);
    await site.write(file, after);
  }
  await rm(site.file('.cache'), { recursive: true, force: true });
  if (cache === 'warm') await cp(site.file('.cache-warm'), site.file('.cache'), { recursive: true });
  try {
    return await site.run(['build', ...(fault.args ?? [])]);
  } finally {
    for (const [file, before] of originals) {
      if (before === undefined) await site.remove(file);
      else await site.write(file, before);
    }
  }
}

describe.each([3, 30])('a failed build of %i articles', (count) => {
  let site: TempSite;
  it.each(Object.entries(FAULTS))(
    '%s: exits with its error, cold and warm, and leaves no helper',
    async (_name, fault) => {
      site ??= await siteWith(count);
      for (const cache of ['cold', 'warm'] as const) {
        const result = await failingBuild(site, fault, cache);
        expect(result.code, `${cache}: ${result.stderr}`).toBe(1);
        expect(result.stderr, cache).toContain(`[${fault.code}]`);
        expect(result.stderr, cache).not.toMatch(WATCHDOG);
        expect(result.stderr, cache).not.toContain('internal error');
        expect(
          await waitFor(() => processesUsing(site.dir).length === 0, 2000),
          `${cache}: a helper outlived the build`,
        ).toBe(true);
      }
    },
    180_000,
  );
});
