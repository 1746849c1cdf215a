// The Markdown helper processes, run from the generator's TypeScript sources (as in a checkout
// whose sources changed since lib/ was made): the helper script is compiled into the cache folder,
// converts as this process does, and is removed when the pool closes. The shipped helper
// (lib/markdown-helper.js) is what the CLI tests run, through bin/ssg.js.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarkdownPool } from '../src/content/markdown-pool.ts';
import type { SsgError } from '../src/errors.ts';
import { processesUsing } from './helpers/tree.ts';
import { convertMarkdown } from '../src/content/markdown.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ssg-pool-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Markdown helper processes, from the sources', () => {
  it('compile their script into the cache folder, convert as this process does, and leave nothing behind', async () => {
    const cacheDir = path.join(dir, '.cache');
    const settings = { root: dir, articlesDir: path.join(dir, 'news'), publicDir: path.join(dir, 'public'), cacheDir, assetsDir: 'assets', sizes: '100vw' };
    const here = async () => {
      throw new Error('70 articles are converted by the helpers, not here');
    };
    const pool = createMarkdownPool({ cacheDir, converter: { here, helperSettings: settings }, size: 2 });
    const items = Array.from({ length: 70 }, (_, n) => ({ markdown: `# Post ${n}\n\n| a |\n|---|\n| ${n} |\n\n~~gone~~ <b>raw</b>\n`, file: `news/post-${n}.md`, bodyLine: 4 }));
    let batches = 0;
    try {
      const results = await pool.convert(items, () => batches++);
      expect(batches).toBeGreaterThan(1);
      expect(results.map((result) => result.html)).toEqual(items.map((item) => convertMarkdown(item.markdown).html));
      expect(results[0]!.removedHtml).toEqual([]);
      expect((await readdir(cacheDir)).filter((name) => name.startsWith('markdown-helper'))).toHaveLength(1);
    } finally {
      await pool.close();
    }
    expect((await readdir(cacheDir)).filter((name) => name.startsWith('markdown-helper'))).toEqual([]);
  }, 60_000);

  it('a helper killed mid-way fails the conversion by name, naming the articles it held; nothing crashes after', async () => {
    const cacheDir = path.join(dir, '.cache-killed');
    const settings = { root: dir, articlesDir: path.join(dir, 'news'), publicDir: path.join(dir, 'public'), cacheDir, assetsDir: 'assets', sizes: '100vw' };
    const pool = createMarkdownPool({ cacheDir, converter: { here: async () => ({ html: '', removedHtml: [], headings: [], words: 0 }), helperSettings: settings }, size: 2 });
    const body = Array.from({ length: 400 }, (_, n) => `Paragraph ${n} with *emphasis* and a [link](https://example.com/${n}).`).join('\n\n');
    const items = Array.from({ length: 600 }, (_, n) => ({ markdown: body, file: `news/post-${n}.md`, bodyLine: 4 }));
    let killed = 0;
    try {
      const error = await pool
        .convert(items, () => {
          if (killed > 0) return;
          const helpers = processesUsing(cacheDir);
          killed = helpers.length;
          if (helpers[0]) process.kill(helpers[0], 'SIGKILL');
        })
        .then(() => undefined, (caught: unknown) => caught);
      expect(killed).toBeGreaterThan(0);
      expect((error as SsgError).code).toBe('MarkdownHelperEnded');
      expect((error as SsgError).message).toMatch(/ended \(stopped by SIGKILL\) while converting news\/post-\d+\.md and 15 more/);
    } finally {
      await pool.close();
    }
    // Late messages of the other helper and sends to the dead one raise nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);
});
