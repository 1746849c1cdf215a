// npm run audit [-- --routes /,/about] [-- --json dir]
// Lighthouse 12 (mobile preset, default simulated throttling) in Debian's Chromium over every
// route of a fresh build served as `preview` serves it (compression, _headers). Prints the four
// category scores and LCP, TBT and CLS per route, and what kept a score below 100. With --json,
// each route's report and trace go to dir/<route>.json and dir/<route>.trace.json, to see which
// main-thread tasks made the blocking time (its long-tasks audit, the trace's RunTask events).
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { preview } from '../src/server/preview.ts';
import { CHROMIUM } from '../tests/helpers/browser.ts';
import { copySite, repoRoot } from '../tests/helpers/project.ts';
import { CHALLENGE_STAND_IN_PATH, challengeStandIn } from '../tests/helpers/site.ts';
import { freePort } from '../tests/helpers/stand-ins.ts';

const { values } = parseArgs({ options: { routes: { type: 'string' }, json: { type: 'string' } } });

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'data']);
// This machine cannot reach the challenge provider: its script is replaced by the local stand-in.
const config = await site.read('content/site.yaml');
await site.write('content/site.yaml', config.replace(/scriptUrl: .*/, `scriptUrl: ${CHALLENGE_STAND_IN_PATH}?render=explicit`));
await site.write(`site/public${CHALLENGE_STAND_IN_PATH}`, challengeStandIn);
const built = await site.run(['build', '--base-url', origin]);
if (built.code !== 0) throw new Error(built.stderr);

const sitemap = await site.read('dist/sitemap.xml');
const routes = values.routes?.split(',') ?? [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);

const server = await preview({ dir: site.file('dist'), port });
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});

const rows: string[][] = [];
// The machine is shared: a busy CPU shows as blocking time even on pages that run no script, so
// each row says how much script the page ran and the load around the run.
const loadAtStart = loadavg();
const problems: string[] = [];
try {
  for (const route of routes) {
    const lhr = await audit(route);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    rows.push([
      route,
      String(score('performance')),
      String(score('accessibility')),
      String(score('best-practices')),
      String(score('seo')),
      `${(metric('largest-contentful-paint') / 1000).toFixed(2)} s`,
      `${Math.round(metric('total-blocking-time'))} ms`,
      metric('cumulative-layout-shift').toFixed(3),
      String(scriptRequests(lhr)),
    ]);
    for (const category of Object.values(lhr.categories)) {
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          problems.push(`${route} · ${category.title}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
        }
      }
    }
  }
} finally {
  await chrome.kill();
  await server.close();
  await site.dispose();
}

const header = ['Route', 'Perf', 'A11y', 'Best', 'SEO', 'LCP', 'TBT', 'CLS', 'Scripts'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
console.log('Lighthouse 12, mobile preset, simulated throttling, Debian Chromium');
const load = (figures: number[]) => figures.map((figure) => figure.toFixed(1)).join(', ');
console.log(`Load average (1, 5, 15 min) at start ${load(loadAtStart)}, at end ${load(loadavg())}\n`);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(problems.length ? `\nBelow 100:\n  ${problems.join('\n  ')}` : '\nEvery score is 100.');

/**
 * One route's report. Lighthouse now and then fails to record its own trace (NO_NAVSTART, a
 * Chromium race, not a property of the page): such a run is tried again, twice at most, and
 * said so; a run that fails three times is reported as it is.
 */
async function audit(route: string) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(origin + route, { port: chrome.port, output: 'json', logLevel: 'error' });
    const lhr = result!.lhr;
    if (lhr.runtimeError && attempt < 3) {
      console.log(`${route}: Lighthouse failed (${lhr.runtimeError.code}); running it again`);
      continue;
    }
    if (values.json) {
      const name = route === '/' ? 'home' : route.slice(1).replace(/\//g, '_');
      await mkdir(values.json, { recursive: true });
      await writeFile(path.join(values.json, `${name}.json`), JSON.stringify(lhr, null, 1));
      await writeFile(path.join(values.json, `${name}.trace.json`), JSON.stringify(result!.artifacts.Trace));
    }
    return lhr;
  }
}

/** Scripts the page fetched while Lighthouse loaded it (before any interaction). */
function scriptRequests(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string }[] } | undefined)?.items ?? [];
  return items.filter((item) => item.resourceType === 'Script').length;
}
