// Dev mode makes the search index when a search asks for it, not on every save (indexing every page
// again takes seconds at a thousand articles): the save's pages never wait for it, and the index a
// search gets is the one a fresh build writes from the same pages.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { pagefindLimits } from '../src/search/search-index.ts';
import { listFiles } from '../src/output/output-file.ts';
import { DevProcess } from './helpers/dev-process.ts';
import { devSite } from './helpers/dev-site.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const DEV_DIR = '.cache/ssg/dev';

/** The fixture with search on: its articles indexed, the box on /about. */
async function withSearch(site: TempSite): Promise<void> {
  const index = await site.read('site/index.tsx');
  await site.write(
    'site/index.tsx',
    index.replace('  layout: Layout,', "  layout: Layout,\n  search: { indexed: ['/news/:slug'], pages: ['/about'] },"),
  );
}

/** The index's files in a folder, by path, without the precompressed siblings a build adds. */
async function indexFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = (await listFiles(path.join(dir, 'pagefind'))).filter((file) => !/\.(br|gz)$/.test(file));
  return new Map(files.sort().map((file) => [file, readFileSync(path.join(dir, 'pagefind', file))]));
}

describe('the search index in dev', () => {
  const state = devSite(fixture, withSearch);
  const devIndex = () => state.site.file(`${DEV_DIR}/pagefind`);

  async function expectBuildsIndex(label: string): Promise<void> {
    await build({ root: state.site.dir, outDir: 'dist', warn: () => {} });
    const built = await indexFiles(state.site.file('dist'));
    expect(built.size, label).toBeGreaterThan(3);
    expect(await indexFiles(state.site.file(DEV_DIR)), label).toEqual(built);
  }

  it('is not made by a run, only when asked for, and is then the one a build writes', async () => {
    expect(existsSync(devIndex())).toBe(false);
    const post = 'content/news/first-post.md';
    await state.site.write(post, `${await state.site.read(post)}\nA zyzzyva landed.\n`);
    await state.dev.update([state.site.file(post)]);
    expect(existsSync(devIndex())).toBe(false);
    await Promise.all([state.dev.askedFor('/pagefind/pagefind.js'), state.dev.askedFor('/pagefind/pagefind.js')]);
    await expectBuildsIndex('after the first edit');
    expect(readFileSync(path.join(devIndex(), 'pagefind-entry.json'), 'utf8')).toContain('"en"');
  }, 120_000);

  it('after more saves, is made again with no file of the last one left', async () => {
    const before = await indexFiles(state.site.file(DEV_DIR));
    const post = 'content/news/first-post.md';
    await state.site.write(post, (await state.site.read(post)).replace('A zyzzyva landed.', 'A quetzal flew.'));
    await state.dev.update([state.site.file(post)]);
    await state.site.write('content/news/second.md', '---\ntitle: Second\ndate: "2024-03-01"\n---\nA second one.\n');
    await state.dev.update([state.site.file('content/news/second.md')]);
    await state.dev.askedFor('/pagefind/pagefind.js');
    await expectBuildsIndex('after two more saves');
    expect(await indexFiles(state.site.file(DEV_DIR))).not.toEqual(before);
  }, 120_000);
});

/** Runs `work` with Pagefind's binary replaced by a shell script (Pagefind's own override). */
async function withPagefindBinary<T>(script: string, work: () => Promise<T>): Promise<T> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ssg-pagefind-')), 'pagefind');
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  const names = ['PAGEFIND_EXTENDED_BINARY_PATH', 'PAGEFIND_BINARY_PATH'];
  for (const name of names) process.env[name] = file;
  try {
    return await work();
  } finally {
    for (const name of names) delete process.env[name];
  }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'made',
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );

describe('the search index in dev, when Pagefind fails or search is turned off', () => {
  const state = devSite(fixture, withSearch);
  // A Pagefind that exits after reading its input is noticed only by its silence.
  const limits = { ...pagefindLimits };
  beforeAll(() => void Object.assign(pagefindLimits, { silenceMs: 3000, msPerMegabyte: 0 }));
  afterAll(() => void Object.assign(pagefindLimits, limits));
  const devIndex = () => state.site.file(`${DEV_DIR}/pagefind`);
  const save = async (text: string) => {
    const post = 'content/news/first-post.md';
    await state.site.write(post, `${await state.site.read(post)}\n${text}\n`);
    await state.dev.update([state.site.file(post)]);
  };

  it('a Pagefind that exits leaves no index of older pages, says why, and is tried again when asked', async () => {
    await state.dev.askedFor('/pagefind/pagefind.js');
    expect(existsSync(path.join(devIndex(), 'pagefind.js'))).toBe(true);
    await save('A kinkajou climbed.');
    const said = await withPagefindBinary('exit 3', () => failure(state.dev.askedFor('/pagefind/pagefind.js')));
    expect(said).toMatch(/^SearchIndexFailed: Pagefind could not index the pages: /);
    // An index of the pages before the save would find what they no longer say.
    expect(existsSync(path.join(devIndex(), 'pagefind.js'))).toBe(false);
    await state.dev.askedFor('/pagefind/pagefind.js');
    await build({ root: state.site.dir, outDir: 'dist', warn: () => {} });
    expect(await indexFiles(state.site.file(DEV_DIR))).toEqual(await indexFiles(state.site.file('dist')));
  }, 120_000);

  it('a Pagefind that answers nothing fails after the silence limit, and so does a build', async () => {
    pagefindLimits.silenceMs = 500;
    try {
      await save('A tapir waded.');
      const silent = 'exec sleep 20';
      expect(await withPagefindBinary(silent, () => failure(state.dev.askedFor('/pagefind/pagefind.js')))).toBe(
        'SearchIndexFailed: Pagefind could not index the pages: it answered nothing for 0.5 s',
      );
      const built = await withPagefindBinary(silent, () =>
        failure(build({ root: state.site.dir, outDir: 'dist', warn: () => {} })),
      );
      expect(built).toContain('Pagefind could not index the pages: it answered nothing for 0.5 s');
    } finally {
      pagefindLimits.silenceMs = 3000;
    }
  }, 120_000);

  it('turned off, leaves no index behind, as a build writes none', async () => {
    await state.dev.askedFor('/pagefind/pagefind.js');
    expect(existsSync(path.join(devIndex(), 'pagefind.js'))).toBe(true);
    const index = await state.site.read('site/index.tsx');
    await state.site.write('site/index.tsx', index.replace(/\n {2}search: \{[^\n]*\},/, ''));
    await state.dev.update([state.site.file('site/index.tsx')]);
    await state.dev.askedFor('/pagefind/pagefind.js');
    expect(await listFiles(devIndex())).toEqual([]);
  }, 120_000);
});

describe('the search index in dev, stopped with one index made and another asked for', () => {
  const state = devSite(fixture, withSearch);

  it('starts no Pagefind once stopping began, and leaves no index', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'ssg-pagefind-log-')), 'starts');
    writeFileSync(log, '');
    const real = path.join(repoRoot, 'node_modules/@pagefind/linux-x64/bin/pagefind_extended');
    // The real Pagefind, slow to start: the first index is still being made when the next is asked for.
    const slow = `echo started >> ${log}\nsleep 1\nexec ${real} "$@"`;
    await withPagefindBinary(slow, async () => {
      const post = 'content/news/first-post.md';
      const save = async (text: string) => {
        await state.site.write(post, `${await state.site.read(post)}\n${text}\n`);
        await state.dev.update([state.site.file(post)]);
      };
      await save('A kinkajou climbed.');
      const first = failure(state.dev.askedFor('/pagefind/pagefind.js'));
      await save('A tapir waded.');
      const second = failure(state.dev.askedFor('/pagefind/pagefind.js'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await state.dev.dispose();
      expect(await first).toMatch(/^SearchIndexFailed: /);
      expect(await second).toBe('made'); // settled, without an index
    });
    expect(readFileSync(log, 'utf8')).toBe('started\n');
    expect(await listFiles(state.site.file(`${DEV_DIR}/pagefind`))).toEqual([]);
  }, 120_000);
});

describe('ssg dev answers a search', () => {
  let site: TempSite;
  let dev: DevProcess;
  beforeAll(async () => {
    site = await copySite(fixture);
    await withSearch(site);
    dev = await DevProcess.start(site.dir);
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
    await site?.dispose();
  });

  it("with the index of the pages as they are, made at the search's first request", async () => {
    await dev.appendAndReload(site.file('content/news/first-post.md'), '\nA axolotl swam.\n');
    const entry = await fetch(`${dev.url}/pagefind/pagefind-entry.json`);
    expect(entry.status).toBe(200);
    expect(((await entry.json()) as { languages: object }).languages).toHaveProperty('en');
    const script = await fetch(`${dev.url}/pagefind/pagefind.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    // The saved word is in the index: one page's fragment (gzipped JSON) holds it.
    const fragments = path.join(site.file(DEV_DIR), 'pagefind', 'fragment');
    const texts = (await listFiles(fragments)).map((name) =>
      gunzipSync(readFileSync(path.join(fragments, name))).toString('utf8'),
    );
    expect(texts.filter((text) => text.includes('A axolotl swam.'))).toHaveLength(1);
  }, 120_000);
});

describe('ssg dev stopped while it makes the index', () => {
  it('ends Pagefind with it on Ctrl-C, and exits as stopped by that signal', async () => {
    const site = await copySite(fixture);
    try {
      await withSearch(site);
      // A Pagefind that never answers, with a mark to find its process by.
      const mark = `${process.pid}.${Date.now() % 1000}`;
      const dev = await withPagefindBinary(`exec sleep ${mark}`, () => DevProcess.start(site.dir));
      const running = () => execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${mark}`);
      void fetch(`${dev.url}/pagefind/pagefind.js`).catch(() => {});
      await expect.poll(running, { timeout: 10_000 }).toBe(true);
      expect(await dev.stop('SIGINT')).toBe(130);
      await expect.poll(running, { timeout: 5_000 }).toBe(false);
    } finally {
      await site.dispose();
    }
  }, 60_000);
});
