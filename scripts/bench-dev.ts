// npm run bench:dev [-- --articles 1000 --edits 20]
// Dev mode on a copy of the site with N generated articles: the time from writing one article
// until its rebuilt page is on disk and the reload event has reached a listening browser.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DevProcess } from '../tests/helpers/dev-process.ts';
import { copySite, repoRoot } from '../tests/helpers/project.ts';
import { writeArticles } from './bench/articles.ts';

const { values } = parseArgs({
  options: { articles: { type: 'string', default: '1000' }, edits: { type: 'string', default: '20' } },
});
const articleCount = Number(values.articles);
const edits = Number(values.edits);

const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots']);
await writeArticles(site.file('content/news'), articleCount);
const started = performance.now();
const dev = await DevProcess.start(site.dir);
const startup = performance.now() - started;
const events = await dev.events();
const timings: number[] = [];
try {
  for (let edit = 0; edit < edits; edit++) {
    const index = (edit * 37) % articleCount;
    const file = site.file(`content/news/bench-article-${index}.md`);
    const slug = `bench-article-${index}`;
    const marker = `Edit number ${edit} of the benchmark.`;
    const source = await readFile(file, 'utf8');
    const t0 = performance.now();
    await writeFile(file, `${source}\n${marker}\n`);
    for (;;) {
      const event = await events.next('reload');
      if ((event.data as { pages: string[] }).pages.includes(`/news/${slug}`)) break;
    }
    const elapsed = performance.now() - t0;
    const onDisk = await readFile(path.join(site.dir, '.cache/ssg/dev/news', `${slug}.html`), 'utf8');
    if (!onDisk.includes(marker)) throw new Error(`the page of ${slug} on disk lacks the edit`);
    timings.push(elapsed);
    // Past chokidar's 50 ms throttle and the watcher's follow-up look, so edits do not overlap.
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
} finally {
  events.close();
  await dev.stop();
  await site.dispose();
}

const sorted = [...timings].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const rebuilds = [...dev.stdout.matchAll(/changed · (\d+) pages? written · (\d+) ms/g)].map((m) => Number(m[2]));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;
console.log(`dev mode, ${articleCount} articles (+ the site's own), ${edits} edits of one article each`);
console.log(`  start-up (first build and serving):   ${startup.toFixed(0)} ms`);
console.log(
  `  write → page on disk + reload event:  median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
);
console.log(
  `  rebuild itself (as dev prints it):    median ${median(rebuilds)} ms; pages written per edit: ${[...new Set([...dev.stdout.matchAll(/changed · (\d+) pages? written/g)].map((m) => m[1]))].join(', ')}`,
);
