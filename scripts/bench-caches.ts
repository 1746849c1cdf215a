// npm run bench:caches [-- --size 1000 --runs 3]
// What each cache store buys: a copy of the site with `size` generated articles, built cold, then
// the CI case (.cache/ and dist/ kept, one article's body edited) built again and again. Each
// store's turn is two such builds: one with every store as the last build left it, then one with
// that store's entries removed first (the build makes them again, as it would without the store).
// The store buys the difference of the two (medians over --runs rounds). Prints one line per store.
// The unchanged record is not among them: an edit ends it anyway (`npm run bench` measures it).
import { appendFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copySite, repoRoot, runCli } from '../tests/helpers/project.ts';
import { writeArticles } from './bench/articles.ts';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '1000' }, runs: { type: 'string', default: '3' } },
});
const size = Number(values.size);
const runs = Number(values.runs);
if (!Number.isInteger(size) || size < 1) throw new Error(`--size must be a whole number, not "${values.size}"`);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number, not "${values.runs}"`);

/** Each store, by the entries it keeps in `.cache/ssg/` (src/cache/README.md). */
const STORES: ReadonlyArray<{ name: string; entries: (name: string) => boolean }> = [
  { name: 'Markdown', entries: (name) => name === 'markdown' || name === 'markdown.json' },
  { name: 'Images', entries: (name) => name === 'images' },
  { name: 'Bundles', entries: (name) => name === 'bundles' },
  { name: 'Pages', entries: (name) => name === 'pages' || name === 'pages.bin' },
  { name: 'Drawn files', entries: (name) => name === 'generated' },
  { name: 'Precompressed', entries: (name) => name === 'compressed' },
  { name: 'Search index', entries: (name) => name === 'search-index' },
  { name: 'Search pages', entries: (name) => name === 'search-pages' },
  { name: 'Output manifest', entries: (name) => /^output-[0-9a-f]+\.json$/.test(name) },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const site = await copySite(repoRoot, [
    'dist',
    'node_modules',
    '.cache',
    '.git',
    'tests',
    'screenshots',
    'data',
    'lib',
  ]);
  const cacheDir = site.file('.cache/ssg');
  let edits = 0;
  /** The CI case: one body edited, then built; its wall time. */
  const editedBuild = async () => {
    appendFileSync(site.file(`content/news/bench-article-${edits++ % size}.md`), '\nOne more paragraph.\n');
    const started = performance.now();
    const result = await runCli(['build'], site.dir, { NO_COLOR: '1' });
    if (result.code !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
    return performance.now() - started;
  };
  try {
    await writeArticles(site.file('content/news'), size);
    await editedBuild(); // cold
    await editedBuild(); // every store filled as an edit leaves it
    const times = new Map(STORES.map((store) => [store.name, { kept: [] as number[], removed: [] as number[] }]));
    for (let round = 0; round < runs; round++) {
      for (const store of STORES) {
        times.get(store.name)!.kept.push(await editedBuild());
        for (const name of readdirSync(cacheDir).filter(store.entries))
          rmSync(path.join(cacheDir, name), { recursive: true, force: true });
        times.get(store.name)!.removed.push(await editedBuild());
      }
    }
    console.log(`${size} articles, one body edited, medians of ${runs}: with the store, without it, what it buys`);
    for (const [name, { kept, removed }] of times) {
      const gain = median(removed) - median(kept);
      console.log(
        `  ${name.padEnd(16)} ${(median(kept) / 1000).toFixed(2)} s   ${(median(removed) / 1000).toFixed(2)} s   ${gain >= 0 ? '+' : ''}${Math.round(gain)} ms`,
      );
    }
  } finally {
    await site.dispose();
  }
}

await main();
