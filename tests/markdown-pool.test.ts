// The Markdown helper processes, run from the generator's TypeScript sources (as in a checkout
// whose sources changed since lib/ was made): the helper script is compiled into the cache folder,
// converts as this process does, and is removed when the pool closes. The shipped helper
// (lib/markdown-helper.js) is what the CLI tests run, through bin/ssg.js.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditConverter } from '../src/pool/edit-converter.ts';
import { createMarkdownPool } from '../src/pool/markdown-pool.ts';
import { WARM_UP_ARTICLE } from '../src/pool/warm-up.ts';
import type { DrawMany } from '../src/content/drawing.ts';
import type { SsgError } from '../src/errors/errors.ts';
import { processesUsing } from './helpers/tree.ts';
import { convertMarkdown } from '../src/content/markdown.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ssg-pool-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the helpers are told of a site in the scratch folder, with its cache in `cacheDir`. */
const helperSettings = (cacheDir: string) => ({
  root: dir,
  contentDir: path.join(dir, 'news'),
  publicDir: path.join(dir, 'public'),
  cacheDir,
  assetsDir: 'assets',
  sizes: '100vw',
});

describe('the Markdown helper processes, from the sources', () => {
  it('compile their script into the cache folder, convert as this process does, and leave nothing behind', async () => {
    const cacheDir = path.join(dir, '.cache');
    const settings = helperSettings(cacheDir);
    const pool = createMarkdownPool({ cacheDir, converter: { helperSettings: settings }, size: 2 });
    const items = Array.from({ length: 70 }, (_, n) => ({
      markdown: `# Post ${n}\n\n| a |\n|---|\n| ${n} |\n\n~~gone~~ <b>raw</b>\n`,
      file: `news/post-${n}.md`,
      bodyLine: 4,
    }));
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
    const settings = helperSettings(cacheDir);
    const pool = createMarkdownPool({ cacheDir, converter: { helperSettings: settings }, size: 2 });
    const body = Array.from(
      { length: 400 },
      (_, n) => `Paragraph ${n} with *emphasis* and a [link](https://example.com/${n}).`,
    ).join('\n\n');
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
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(killed).toBeGreaterThan(0);
      expect((error as SsgError).code).toBe('MarkdownHelperEnded');
      expect((error as SsgError).message).toMatch(
        /ended \(stopped by SIGKILL\) while converting news\/post-\d+\.md and 15 more/,
      );
    } finally {
      await pool.close();
    }
    // Late messages of the other helper and sends to the dead one raise nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it('an article past its time budget stops its helper and fails by name (ArticleTooSlow); a new helper converts the rest', async () => {
    const cacheDir = path.join(dir, '.cache-slow');
    const settings = helperSettings(cacheDir);
    const pool = createMarkdownPool({
      cacheDir,
      converter: { helperSettings: settings },
      size: 1,
      limits: { timeoutMs: 1500, helperMemoryMb: 512 },
    });
    // Unmatched emphasis: micromark's time grows with the square of the run (50,000 took minutes).
    const slow = `${'*'.repeat(25_000)}x${'*'.repeat(25_000)}`;
    const items = Array.from({ length: 40 }, (_, n) => ({
      markdown: n === 3 ? slow : `Post ${n}`,
      file: `news/post-${n}.md`,
      bodyLine: 4,
    }));
    const converted = new Set<number>();
    const started = Date.now();
    try {
      const error = await pool
        .convert(items, (indexes) => indexes.forEach((index) => converted.add(index)))
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect((error as SsgError).code).toBe('ArticleTooSlow');
      expect((error as SsgError).file).toBe('news/post-3.md');
      expect((error as SsgError).message).toBe(
        'Converting its Markdown took more than 1.5 s; the helper converting it was stopped.',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      // The batch after it was converted by the helper that took the slow one's place.
      await expect
        .poll(() => [...converted].filter((index) => index >= 16).sort((a, b) => a - b), { timeout: 10_000 })
        .toEqual(Array.from({ length: 24 }, (_, n) => n + 16));
    } finally {
      await pool.close();
    }
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it("an article that needs more memory than a helper has fails by name (ArticleOutOfMemory), without V8's report on the terminal; one nested too deep, ArticleTooDeep", async () => {
    const cacheDir = path.join(dir, '.cache-memory');
    const settings = helperSettings(cacheDir);
    const pool = createMarkdownPool({
      cacheDir,
      converter: { helperSettings: settings },
      size: 1,
      limits: { timeoutMs: 60_000, helperMemoryMb: 96 },
    });
    const hungry =
      Array.from({ length: 60_000 }, (_, n) => `[l${n}]`).join('\n') +
      '\n\n' +
      Array.from({ length: 60_000 }, (_, n) => `[l${n}]: https://example.com/${n}`).join('\n');
    const deep = `${'<div>'.repeat(30_000)}x${'</div>'.repeat(30_000)}`;
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (
      written.push(String(chunk)),
      write(chunk, ...rest)
    )) as typeof process.stderr.write;
    try {
      const [error] = await Promise.all([
        pool.convert([{ markdown: hungry, file: 'news/hungry.md', bodyLine: 1 }]).then(
          () => undefined,
          (caught: unknown) => caught,
        ),
      ]);
      expect((error as SsgError).code).toBe('ArticleOutOfMemory');
      expect((error as SsgError).file).toBe('news/hungry.md');
      expect(written.join('')).not.toMatch(/heap|Last few GCs/);
      const [result] = await pool.convert([{ markdown: deep, file: 'news/deep.md', bodyLine: 1 }]);
      expect(result!.error?.errors[0]).toMatchObject({ code: 'ArticleTooDeep', file: 'news/deep.md' });
    } finally {
      process.stderr.write = write;
      await pool.close();
    }
  }, 60_000);

  it("draw in the helpers with the site module's drawers, queued after Markdown, drawn here when few, and report a failure as drawn here", async () => {
    const cacheDir = path.join(dir, '.cache-draw');
    await mkdir(cacheDir, { recursive: true });
    const siteModule = path.join(cacheDir, 'site.mjs');
    // A compiled site module as the build writes its copy: `site` with its drawers.
    await writeFile(
      siteModule,
      `export const site = { drawers: {
        card: (input, { root }) => new TextEncoder().encode(\`\${process.pid} \${root} \${input.n}\`),
        broken: () => { throw new Error('drawn in the helper'); },
      } };`,
    );
    const settings = helperSettings(cacheDir);
    const drawnHere: string[] = [];
    const here: DrawMany = (jobs) =>
      jobs.map(async (job) => {
        drawnHere.push(job.path);
        if (job.drawer === 'broken') throw new Error('drawn here, with the site file and line');
        return new TextEncoder().encode(`here ${job.path}`);
      });
    const pool = createMarkdownPool({
      cacheDir,
      converter: { helperSettings: settings },
      size: 2,
      drawing: { siteModule, root: dir, here },
    });
    const jobs = (count: number, drawer = 'card') =>
      Array.from({ length: count }, (_, n) => ({ path: `/cards/${n}.png`, drawer, input: { n } }));
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    try {
      // A few: here, no helper started.
      expect((await Promise.all(pool.draw(jobs(3)))).map(decode)).toEqual([
        'here /cards/0.png',
        'here /cards/1.png',
        'here /cards/2.png',
      ]);
      expect(processesUsing(cacheDir)).toEqual([]);
      // Many: in the helpers, in order, each by one of them.
      const drawn = (await Promise.all(pool.draw(jobs(40)))).map(decode);
      expect(drawn.map((text) => text.split(' ').slice(1).join(' '))).toEqual(
        jobs(40).map((job) => `${dir} ${(job.input as { n: number }).n}`),
      );
      expect(new Set(drawn.map((text) => text.split(' ')[0])).size).toBe(2);
      expect(drawn.some((text) => text.startsWith(`${process.pid} `))).toBe(false);
      // A drawer that throws in a helper is drawn here again, where its error names the site's file.
      drawnHere.length = 0;
      await expect(pool.draw(jobs(1, 'broken'))[0]).rejects.toThrow('drawn here, with the site file and line');
      expect(drawnHere).toEqual(['/cards/0.png']);
      // A helper killed while drawing fails what it held, by name; the other draws the rest.
      const [victim] = processesUsing(cacheDir);
      const slow = pool.draw(jobs(30));
      process.kill(victim!, 'SIGKILL');
      const results = await Promise.allSettled(slow);
      const failed = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as SsgError] : []));
      expect(failed.length).toBeLessThanOrEqual(1);
      for (const error of failed)
        expect(error.message).toMatch(/ended \(stopped by SIGKILL\) while drawing \/cards\/\d+\.png/);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(30 - failed.length);
    } finally {
      await pool.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it('release() lets the helpers finish the drawing they were given, then ends them', async () => {
    const cacheDir = path.join(dir, '.cache-release');
    await mkdir(cacheDir, { recursive: true });
    const siteModule = path.join(cacheDir, 'site.mjs');
    await writeFile(
      siteModule,
      `export const site = { drawers: { card: async (input) => { await new Promise((r) => setTimeout(r, 20)); return new Uint8Array([input.n]); } } };`,
    );
    const settings = helperSettings(cacheDir);
    const here: DrawMany = () => {
      throw new Error('not here');
    };
    const pool = createMarkdownPool({
      cacheDir,
      converter: { helperSettings: settings },
      size: 2,
      drawing: { siteModule, root: dir, here },
    });
    const drawing = pool.draw(
      Array.from({ length: 30 }, (_, n) => ({ path: `/c/${n}`, drawer: 'card', input: { n } })),
    );
    const released = pool.release();
    expect((await Promise.all(drawing)).map((bytes) => bytes[0])).toEqual(Array.from({ length: 30 }, (_, n) => n));
    await released;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it('a closed pool refuses work that comes late and starts no helper for it (a failed run ends)', async () => {
    const cacheDir = path.join(dir, '.cache-closed');
    await mkdir(cacheDir, { recursive: true });
    const siteModule = path.join(cacheDir, 'site.mjs');
    await writeFile(
      siteModule,
      `export const site = { drawers: { card: async (input) => new Uint8Array([input.n]) } };`,
    );
    let drawnHere = 0;
    const here: DrawMany = (jobs) => ((drawnHere += jobs.length), jobs.map(() => Promise.resolve(new Uint8Array())));
    const pool = createMarkdownPool({
      cacheDir,
      converter: { helperSettings: helperSettings(cacheDir) },
      size: 2,
      drawing: { siteModule, root: dir, here },
    });
    await pool.convert([{ markdown: '# One\n', file: 'news/one.md', bodyLine: 1 }]);
    await pool.close();
    // Many drawings (the helpers' share) and few (drawn here when no helper runs): neither is done.
    expect(pool.draw([])).toEqual([]);
    for (const count of [30, 2]) {
      const late = await Promise.allSettled(
        pool.draw(Array.from({ length: count }, (_, n) => ({ path: `/c/${n}`, drawer: 'card', input: { n } }))),
      );
      expect(late.every((result) => result.status === 'rejected')).toBe(true);
    }
    await expect(pool.convert([{ markdown: '# Two\n', file: 'news/two.md', bodyLine: 1 }])).rejects.toThrow(/closed/);
    expect(drawnHere).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it("dev's edit helper is started and warmed before the first save: the sample converts cleanly, and the first edit goes to that same helper", async () => {
    // The sample shows what warming compiles: every kind of block the converter has code for.
    const sample = convertMarkdown(WARM_UP_ARTICLE);
    for (const element of [
      '<h2',
      '<ol>',
      'markdown-alert-note',
      '<table>',
      'type="checkbox"',
      '<del>',
      'data-footnote',
      'class="hljs',
    ])
      expect(sample.html, element).toContain(element);
    const cacheDir = path.join(dir, '.cache-edits');
    const converter = { helperSettings: helperSettings(cacheDir) };
    const edits = createEditConverter({ cacheDir });
    try {
      await edits.warm(converter);
      const warmed = processesUsing(cacheDir);
      expect(warmed).toHaveLength(1);
      const item = { markdown: '# Edited\n\nNow with *more*.\n', file: 'news/edited.md', bodyLine: 4 };
      expect((await edits.convert(item, converter)).html).toBe(convertMarkdown(item.markdown).html);
      expect(processesUsing(cacheDir)).toEqual(warmed);
    } finally {
      await edits.close();
    }
    expect(processesUsing(cacheDir)).toEqual([]);
  }, 60_000);

  it('warming never fails, even when its helper cannot start (the edits report that)', async () => {
    const blocked = path.join(dir, 'not-a-folder');
    await writeFile(blocked, 'a file where the cache folder would be');
    const edits = createEditConverter({ cacheDir: path.join(blocked, 'cache') });
    try {
      await expect(
        edits.warm({ helperSettings: helperSettings(path.join(blocked, 'cache')) }),
      ).resolves.toBeUndefined();
    } finally {
      await edits.close();
    }
  }, 60_000);
});
