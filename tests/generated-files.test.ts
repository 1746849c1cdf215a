// The site's drawn files (share cards): taken from dev's memory between rebuilds, from the cache
// across builds, drawn only when their path, key or the site code changed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFiles, type DrawnMemo } from '../src/cards/generated-files.ts';
import { outputHash } from '../src/output/output-file.ts';
import type { GeneratedFile, SiteDefinition } from '../src/render/site-definition.ts';

describe('generateFiles', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'ssg-drawn-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  /** A site drawing one file per key; `drawn` lists what was drawn, in order. */
  function siteOf(keys: readonly string[], drawn: string[]): SiteDefinition {
    const files = (): GeneratedFile[] =>
      keys.map((key, index) => ({
        path: `/cards/${index}.bin`,
        key,
        render: () => {
          drawn.push(key);
          return new TextEncoder().encode(`card ${index}: ${key}`);
        },
      }));
    return { routes: [], files } as unknown as SiteDefinition;
  }
  const context = {
    articles: [],
    data: {},
    collections: {},
    baseUrl: 'https://example.org',
    root: '/',
    warn: () => {},
  };
  const text = (contents: string | Uint8Array) =>
    typeof contents === 'string' ? contents : new TextDecoder().decode(contents);

  it("reports a files() or render() that throws as the site's error (GeneratedFileFailed), naming the file drawn", async () => {
    const dir = await mkdtemp(path.join(cacheDir, 'throws-'));
    const failing = (where: 'files' | 'render') =>
      ({
        routes: [],
        files: () => {
          if (where === 'files') throw new Error('no cards today');
          return [
            { path: '/cards/a.png', key: 'a', render: async () => Promise.reject(new Error('the font is damaged')) },
          ];
        },
      }) as unknown as SiteDefinition;
    await expect(generateFiles(failing('files'), context, { cacheDir: dir, salt: 'code' })).rejects.toMatchObject({
      code: 'GeneratedFileFailed',
      message: expect.stringContaining('no cards today'),
    });
    await expect(generateFiles(failing('render'), context, { cacheDir: dir, salt: 'code' })).rejects.toMatchObject({
      code: 'GeneratedFileFailed',
      message: expect.stringMatching(/Drawing \/cards\/a\.png threw: the font is damaged/),
    });
  });

  it("passes the generator's own errors made inside the site's bundle through as they are, refuses a render() that gives no bytes, and starts nothing after a failure", async () => {
    const dir = await mkdtemp(path.join(cacheDir, 'checks-'));
    // The site's bundle has its own copy of SsgError: only its name and fields say what it is.
    const bundled = Object.assign(
      new Error('In its front matter, the tag "???" has no letters or digits to make its URL from.'),
      { name: 'SsgError', code: 'TagInvalid', file: 'content/news/bad.md' },
    );
    const started: number[] = [];
    const siteRendering = (render: (index: number) => unknown, count = 1) =>
      ({
        routes: [],
        files: () =>
          Array.from({ length: count }, (_, index) => ({
            path: `/cards/${index}.png`,
            key: String(index),
            render: async () => (started.push(index), render(index)),
          })),
      }) as unknown as SiteDefinition;
    await expect(
      generateFiles(
        siteRendering(() => Promise.reject(bundled)),
        context,
        { cacheDir: dir, salt: 'code' },
      ),
    ).rejects.toMatchObject({ code: 'TagInvalid', file: 'content/news/bad.md', message: bundled.message });
    for (const nothing of [undefined, null, 'text', { length: 3 }]) {
      await expect(
        generateFiles(
          siteRendering(() => nothing),
          context,
          { cacheDir: dir, salt: 'code' },
        ),
      ).rejects.toMatchObject({
        code: 'GeneratedFileNotBytes',
        message: expect.stringMatching(/^Drawing \/cards\/0\.png gave \w+, not the file's bytes/),
      });
    }
    started.length = 0;
    await expect(
      generateFiles(
        siteRendering(
          (index) =>
            index === 0
              ? Promise.reject(new Error('first fails'))
              : new Promise((resolve) => setTimeout(() => resolve(new Uint8Array(1)), 20)),
          12,
        ),
        context,
        { cacheDir: dir, salt: 'code', concurrency: 4 },
      ),
    ).rejects.toThrow('first fails');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started.length).toBeLessThanOrEqual(4); // the three others already under way, and no more
  });

  it('with a memo, draws only what changed and reads nothing else, over random sequences of keys (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        async (rounds) => {
          const memo: DrawnMemo = new Map();
          const dir = await mkdtemp(path.join(cacheDir, 'run-'));
          let previous = new Map<string, string | Uint8Array>();
          for (const keys of rounds) {
            const drawn: string[] = [];
            const files = await generateFiles(siteOf(keys, drawn), context, { cacheDir: dir, salt: 'code', memo });
            expect(files.map((file) => text(file.contents))).toEqual(keys.map((key, index) => `card ${index}: ${key}`));
            const byPath = new Map(files.map((file) => [file.path, file.contents]));
            for (const [where, contents] of byPath) {
              // An unchanged file is the very same object as in the last round: dev writes nothing for it.
              if (previous.has(where) && text(previous.get(where)!) === text(contents))
                expect(contents).toBe(previous.get(where));
            }
            expect(memo.size).toBe(keys.length);
            previous = byPath;
          }
          await rm(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('takes unchanged files from the memo even when the cache is gone, and from the cache without a memo', async () => {
    const memo: DrawnMemo = new Map();
    const drawn: string[] = [];
    // What was drawn, in any order: files are drawn concurrently, each when its cache read comes back.
    const drawnSoFar = () => [...drawn].sort();
    await generateFiles(siteOf(['a', 'b'], drawn), context, { cacheDir, salt: 'code', memo });
    expect(drawnSoFar()).toEqual(['a', 'b'].sort());
    await rm(path.join(cacheDir, 'generated'), { recursive: true, force: true });
    await generateFiles(siteOf(['a', 'b'], drawn), context, { cacheDir, salt: 'code', memo });
    expect(drawnSoFar()).toEqual(['a', 'b'].sort());
    await generateFiles(siteOf(['a', 'c'], drawn), context, { cacheDir, salt: 'code', memo });
    expect(drawnSoFar()).toEqual(['a', 'b', 'c'].sort());
    // Another build (no memo) finds 'c' in the cache; 'a' went with the folder, and is drawn again.
    await generateFiles(siteOf(['a', 'c'], drawn), context, { cacheDir, salt: 'code' });
    expect(drawnSoFar()).toEqual(['a', 'b', 'c', 'a'].sort());
    // New site code: everything again.
    await generateFiles(siteOf(['a', 'c'], drawn), context, { cacheDir, salt: 'other code', memo });
    expect(drawnSoFar()).toEqual(['a', 'b', 'c', 'a', 'a', 'c'].sort());
  });

  it("draws files that name one of the site's drawers with their input, through the draw given or here, and refuses a drawer the site lacks", async () => {
    const dir = await mkdtemp(path.join(cacheDir, 'drawers-'));
    const inputs: unknown[] = [];
    const site = (files: unknown[]) =>
      ({
        routes: [],
        files: () => files,
        drawers: {
          card: (input: { n: number }, where: { root: string }) => (
            inputs.push([input, where.root]),
            new TextEncoder().encode(`card ${input.n}`)
          ),
        },
      }) as unknown as SiteDefinition;
    const cards = (count: number) =>
      Array.from({ length: count }, (_, n) => ({
        path: `/cards/${n}.png`,
        key: `k${n}`,
        draw: { drawer: 'card', input: { n } },
      }));
    const here = await generateFiles(site(cards(3)), context, { cacheDir: dir, salt: 'code' });
    expect(here.map((file) => [file.path, text(file.contents)])).toEqual(
      [0, 1, 2].map((n) => [`cards/${n}.png`, `card ${n}`]),
    );
    expect(inputs).toEqual([0, 1, 2].map((n) => [{ n }, '/']));
    // Handed over all at once to the draw given (the helper pool), which answers in order.
    const handed: unknown[][] = [];
    const elsewhere = await generateFiles(site(cards(5)), context, {
      cacheDir: dir,
      salt: 'code',
      draw: (jobs) => (
        handed.push(jobs.map((job) => job.path)),
        jobs.map(async (job) => new TextEncoder().encode(`elsewhere ${job.path}`))
      ),
    });
    expect(handed).toEqual([['/cards/3.png', '/cards/4.png']]); // 0-2 are cached
    expect(elsewhere.map((file) => text(file.contents))).toEqual([
      'card 0',
      'card 1',
      'card 2',
      'elsewhere /cards/3.png',
      'elsewhere /cards/4.png',
    ]);
    await expect(
      generateFiles(site([{ path: '/cards/x.png', key: 'x', draw: { drawer: 'poster', input: {} } }]), context, {
        cacheDir: dir,
        salt: 'code',
      }),
    ).rejects.toMatchObject({
      code: 'GeneratedFileDrawerUnknown',
      message: '/cards/x.png is to be drawn by "poster", which the site\'s drawers do not hold (it has "card").',
    });
    await expect(
      generateFiles(site([{ path: '/cards/y.png', key: 'y' }]), context, { cacheDir: dir, salt: 'code' }),
    ).rejects.toMatchObject({
      code: 'GeneratedFileDrawerUnknown',
      message: '/cards/y.png has neither render() nor draw.',
    });
    // A drawer that throws is the site's error, or the author's when the file is made from content.
    const failing = {
      routes: [],
      files: () => [
        { path: '/cards/z.png', key: 'z', draw: { drawer: 'card', input: {} }, source: 'content/news/z.md' },
      ],
      drawers: { card: () => Promise.reject(new Error('not an image')) },
    } as unknown as SiteDefinition;
    await expect(generateFiles(failing, context, { cacheDir: dir, salt: 'code' })).rejects.toMatchObject({
      code: 'GeneratedFileSourceInvalid',
      file: 'content/news/z.md',
      message: '/cards/z.png could not be made: not an image',
    });
  });

  it('hands a build the drawn files to read from the cache when the output writes them, not held in memory, with the hash of their bytes', async () => {
    const dir = await mkdtemp(path.join(cacheDir, 'lazy-'));
    const site = {
      routes: [],
      files: () => [{ path: '/cards/a.png', key: 'a', draw: { drawer: 'card', input: {} } }],
      drawers: { card: () => new TextEncoder().encode('drawn bytes') },
    } as unknown as SiteDefinition;
    const [file] = await generateFiles(site, context, { cacheDir: dir, salt: 'code', carries: () => false });
    const descriptor = Object.getOwnPropertyDescriptor(file!, 'contents')!;
    expect(descriptor.get).toBeTypeOf('function'); // read when asked for
    expect(text(file!.contents)).toBe('drawn bytes');
    expect(file!.hash).toBe(outputHash(new TextEncoder().encode('drawn bytes')));
  });
});
