// Where a refused link is written: the article that carries it, as its author wrote it, or the
// site file that holds it.
import { mkdtemp, rm } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writtenLinkTargets } from '../src/content/article-links.ts';
import { linkSourceFinder } from '../src/pipeline/link-sources.ts';
import { projectAt } from '../src/project.ts';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function siteOf(files: Record<string, string>) {
  root = await mkdtemp(path.join(tmpdir(), 'ssg-link-sources-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return linkSourceFinder(projectAt(root));
}

describe('writtenLinkTargets', () => {
  it('reads inline links, reference definitions and HTML attributes with their lines', () => {
    const source =
      '---\ntitle: x\n---\nSee [a](../a.md#faq "t") and <a href="/b">b</a>.\n\n[ref]: <c.md>\n![img](./i.png)';
    expect(writtenLinkTargets(source)).toEqual([
      { target: '../a.md#faq', line: 4 },
      { target: '/b', line: 4 },
      { target: 'c.md', line: 6 },
      { target: './i.png', line: 7 },
    ]);
  });
});

describe('linkSourceFinder', () => {
  it('finds a link in the article as its author wrote it, with its line', async () => {
    const locate = await siteOf({
      'content/news/post.md': '---\ntitle: P\n---\nIntro.\n\nSee [the FAQ](../2024/hello-world.md#faq).\n',
    });
    expect(locate('hello-world#faq', ['content/news/post.md'])).toEqual({
      file: 'content/news/post.md',
      line: 6,
      written: '../2024/hello-world.md#faq',
    });
  });

  it('finds a link of the layout in the site file that holds it, not in the articles that carry it', async () => {
    const locate = await siteOf({
      'content/news/post.md': '---\ntitle: P\n---\nNo links.\n',
      'site/index.tsx': 'export default {};\n',
      'site/components/layout.tsx': 'export function Layout() {\n  return <a href="/team">Team</a>;\n}\n',
      'templates/document.html': '<html><!--ssg:head--><!--ssg:body--></html>',
    });
    expect(locate('/team', [undefined, 'content/news/post.md'])).toEqual({
      file: 'site/components/layout.tsx',
      line: 2,
      written: '/team',
    });
    expect(locate('/nowhere-at-all', [undefined])).toBeUndefined();
  });

  it('finds a link held by a data file', async () => {
    const locate = await siteOf({ 'site/index.tsx': '', 'content/networks.yaml': '- name: A\n  href: /stake\n' });
    expect(locate('/stake', [undefined])).toEqual({ file: 'content/networks.yaml', line: 2, written: '/stake' });
  });
});
