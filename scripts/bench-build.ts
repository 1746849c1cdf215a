// npm run bench [-- --sizes 1000,5000,10000]
// For each size: a temporary copy of the site with that many generated articles (about 620 words
// of varied Markdown each), a full build from cold (no cache), then a build with nothing changed,
// then the CI cases with .cache/ and dist/ kept: one article's body edited, then one new article.
// After the cold build, the search index alone (Pagefind over its article pages), as a share of it;
// after the CI cases, Pagefind's own CLI over the same output, and the two CI cases again with the
// site's search turned off: the references the search's goals are measured against in this run.
// Prints wall time, ms per page and the peak memory of every process the build ran (the CLI, its
// helpers, esbuild; sampled from /proc), then the conversion floor of the same articles (two
// processes doing nothing but converting their bodies with the same unified pipeline, each half of
// them) and the cold build's ratio to it. Beside each wall time, the CPU time of every process it
// ran (user and system, all threads): on 2 cores the wall time of a build can be no less than half
// its CPU time, so the two ratios together say how much is work and how much is waiting. Last, the
// share cards alone: 500 of the same articles' cards drawn in one process (libvips on one thread,
// as in a helper), their CPU and bytes a card and the share of the cold build's CPU that all the site's
// cards are at that rate; then the card floor in the same process (sharp alone drawing one fixed
// text layer over the cached backdrop and encoding it: scripts/bench/cards.ts), and Astro's cold
// build of the same posts right after ssg's (scripts/bench/astro.ts: installed once outside the
// project); and each goal of the cold build and the CI cases, met or not.
//
// With --against REF, each size's cold build is also made by the CLI of that commit (a worktree
// with its own packages when its lock file differs, else sharing this node_modules, its lib/ compiled as an install would, its own site/ with the same
// articles), alternating with this tree's, --runs times each, so both see the same machine.
// Then the cold start of this site as it is (its own articles, no .cache, no dist/): the time from
// typing `ssg build` to the built site, --runs times, against REF's alternately when given.
//   npm run bench -- --sizes 1000 --against 0a6531f --runs 2     (--sizes 0 for the cold start only)
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliPath, copySite, repoRoot } from '../tests/helpers/project.ts';
import { articleMarkdown, writeArticles } from './bench/articles.ts';
import { formatPeaks, watchPeaks, type ProcessPeak } from './bench/peaks.ts';
import { pagefindCliTime, searchIndexTime } from './bench/search-index.ts';
import { astroPeer, astroSite, astroVersion } from './bench/astro.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,5000,10000' },
    against: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const sizes = values
  .sizes!.split(',')
  .map(Number)
  .filter((size) => size > 0);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number of at least 1, not "${values.runs}"`);

/**
 * Runs a command through bash, whose `times` then gives the CPU its children used (the command and
 * every process it waited for: the build's helpers and esbuild). Resolves with stdout, the exit
 * code and the CPU seconds; `input` goes to its stdin.
 */
function runMeasured(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
) {
  return new Promise<{ out: string; err: string; code: number | null; cpuMs: number; peaks: ProcessPeak[] }>(
    (resolve) => {
      const script = '"$@"; status=$?; times >&3; exit $status';
      const child = spawn('bash', ['-c', script, 'bash', command, ...args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      });
      const peaks = watchPeaks(child.pid!);
      let out = '';
      let err = '';
      let times = '';
      child.stdout!.on('data', (chunk) => (out += chunk));
      child.stderr!.on('data', (chunk) => (err += chunk));
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => (times += chunk));
      child.stdin!.end(options.input ?? '');
      child.on('close', (code) => {
        // `times`: the shell's own user and system time, then its children's: "0m21.351s 0m4.902s".
        const children = times.trim().split('\n')[1] ?? '';
        const cpuMs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
          (sum, [, minutes, seconds]) => sum + (Number(minutes) * 60 + Number(seconds)) * 1000,
          0,
        );
        resolve({ out, err, code, cpuMs, peaks: peaks.stop() });
      });
    },
  );
}

async function timedBuild(
  cwd: string,
  cli = cliPath,
): Promise<{ wallMs: number; cpuMs: number; pages: number; peakMb: number; peaks: ProcessPeak[]; line: string }> {
  const started = performance.now();
  const { out, err, code, cpuMs, peaks } = await runMeasured(process.execPath, [cli, 'build'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const wallMs = performance.now() - started;
  const match = /Built (\d+) pages.*peak memory (\d+) MB/.exec(out);
  if (code !== 0 || !match) throw new Error(`build failed (${code}):\n${out}\n${err}`);
  return {
    wallMs,
    cpuMs,
    pages: Number(match[1]),
    peakMb: Number(match[2]),
    peaks,
    line: out.trim().split('\n').slice(-2).join('\n    '),
  };
}

/** Wall and CPU time of two processes converting half of the articles' bodies each (start-up included). */
async function conversionFloor(dir: string): Promise<{ wallMs: number; cpuMs: number; convertMs: number[] }> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(dir, name));
  const halves = [files.filter((_, index) => index % 2 === 0), files.filter((_, index) => index % 2 === 1)];
  const started = performance.now();
  const runs = await Promise.all(
    halves.map(async (half) => {
      const run = await runMeasured(
        process.execPath,
        ['--import', 'tsx', path.join(repoRoot, 'scripts', 'bench', 'floor.ts')],
        { cwd: repoRoot, input: half.join('\n') },
      );
      if (run.code !== 0) throw new Error(`the floor process failed (${run.code}):\n${run.err}`);
      return run;
    }),
  );
  return {
    wallMs: performance.now() - started,
    cpuMs: runs.reduce((sum, run) => sum + run.cpuMs, 0),
    convertMs: runs.map((run) => Number(run.out.trim())),
  };
}

/** At most this many cards are drawn alone: enough for a steady figure a card, without drawing 10,000 twice. */
const CARDS_SAMPLED = 500;

/** Share cards of the articles (at most CARDS_SAMPLED) drawn in one process: its CPU and wall milliseconds, how many, and their bytes. */
async function cardsAlone(
  site: string,
  dir: string,
): Promise<{ cpuMs: number; wallMs: number; cards: number; bytes: number; floor: { cpuMs: number; wallMs: number } }> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(dir, name))
    .slice(0, CARDS_SAMPLED + 1);
  // libvips on one thread, as in the build's helpers (one per core).
  const env = { ...process.env, VIPS_CONCURRENCY: process.env.VIPS_CONCURRENCY ?? '1' };
  const run = await runMeasured(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts', 'bench', 'cards.ts'), site],
    { cwd: repoRoot, env, input: files.join('\n') },
  );
  if (run.code !== 0) throw new Error(`the cards process failed (${run.code}):\n${run.err}`);
  const [cpuMs, floorCpuMs, wallMs, floorWallMs, cards, bytes] = run.out.trim().split(' ').map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { cpuMs, wallMs, cards, bytes, floor: { cpuMs: floorCpuMs, wallMs: floorWallMs } };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A worktree of `ref` with its packages, its lib/ compiled as installing it would: the CLI of that commit. */
function worktreeOf(ref: string): { root: string; dispose: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'ssg-bench-against-'));
  rmSync(root, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', root, ref], { cwd: repoRoot, stdio: 'inherit' });
  // Its own packages when its lock file differs (a release before a package was added or removed),
  // installed without install scripts (none of them is needed to build); else this tree's.
  if (
    readFileSync(path.join(root, 'package-lock.json'), 'utf8') ===
    readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')
  ) {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  } else {
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, stdio: 'ignore' });
  }
  if (existsSync(path.join(root, 'scripts', 'build-package.js')))
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-package.js')], { cwd: root, stdio: 'ignore' });
  return {
    root,
    dispose: () => execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: repoRoot, stdio: 'inherit' }),
  };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
type Timed = Awaited<ReturnType<typeof timedBuild>>;

/** A temporary copy of a site (this tree's, or REF's) as a fresh clone has it: no .cache, no dist/, no lib/. */
const siteCopy = (from: string) =>
  copySite(from, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'data', 'lib']);

/** A temporary copy of a site with `size` generated articles. */
async function generatedSite(from: string, size: number) {
  const site = await siteCopy(from);
  await writeArticles(site.file('content/news'), size);
  return site;
}

/** The two CI cases with search turned off: the site's `search` option taken out, one build to settle, then each case. */
async function withoutSearch(site: { file(name: string): string; dir: string }, size: number) {
  const entry = site.file('site/index.tsx');
  const source = readFileSync(entry, 'utf8');
  const stripped = source.replace(/^\s*search: \{[^\n]*\},\n/m, '');
  if (stripped === source) throw new Error(`no search option found in ${entry} to turn off`);
  writeFileSync(entry, stripped);
  await timedBuild(site.dir);
  appendFileSync(site.file('content/news/bench-article-8.md'), '\nOne more paragraph, written in CI.\n');
  const edited = await timedBuild(site.dir);
  writeFileSync(site.file(`content/news/bench-article-${size + 1}.md`), articleMarkdown(size + 1));
  const added = await timedBuild(site.dir);
  return { edited, added };
}

const peer = astroPeer();
const astroMissing = 'missing' in peer ? peer.missing : '';

/** Astro's cold build of the same posts (scripts/bench/astro.ts), or undefined when the peer could not be installed. */
async function astroCold(posts: string) {
  if ('missing' in peer) return undefined;
  const site = astroSite(peer.dir, posts);
  try {
    const started = performance.now();
    const run = await runMeasured(site.command, site.args, { cwd: site.dir, env: site.env });
    const wallMs = performance.now() - started;
    if (run.code !== 0) throw new Error(`Astro's build failed (${run.code}):\n${run.out}\n${run.err}`);
    return { name: `Astro ${astroVersion(peer.dir)} (cold)`, wallMs, cpuMs: run.cpuMs, peaks: run.peaks };
  } finally {
    site.dispose();
  }
}

/** Issue 53's goals: the search costs no more than Pagefind's CLI, and no process of a cold build passes 1 GB. */
function searchGoals(
  size: number,
  runs: { edited: Timed; added: Timed; cli: number; off: { edited: Timed; added: Timed }; anyPeak: number },
): string[] {
  const { edited, added, cli, off, anyPeak } = runs;
  const goal = (name: string, ms: number, limitMs: number) =>
    `${name} within ${seconds(limitMs)}: ${seconds(ms)} ${ms <= limitMs ? 'met' : 'NOT met'}`;
  const peak = `every process of the cold build under 1 GB: ${anyPeak} MB ${anyPeak < 1024 ? 'met' : 'NOT met'}`;
  if (size <= 1000)
    return [
      goal('search: one body edited', edited.wallMs, Math.max(off.edited.wallMs, cli) + 300),
      goal('search: one new article', added.wallMs, Math.max(off.added.wallMs, cli) + 500),
      peak,
    ];
  return [goal('search: one body edited', edited.wallMs, Math.max(2500, cli) + 500), peak];
}

const describe = (run: Timed) =>
  `${seconds(run.wallMs).padStart(8)}   ${(run.wallMs / run.pages).toFixed(2).padStart(5)} ms/page   CPU ${seconds(run.cpuMs)}   peak ${formatPeaks(run.peaks)}`;

/** One size: cold, unchanged, the two CI cases, the floor and the cards alone. */
async function sizeRuns(size: number): Promise<void> {
  const site = await generatedSite(repoRoot, size);
  try {
    const cold = await timedBuild(site.dir);
    const astro = await astroCold(site.file('content/news'));
    const search = await searchIndexTime(site.file('dist'));
    const warm = await timedBuild(site.dir);
    // The CI case, .cache/ kept: one article's body edited; then one new article (the lists, its
    // tags' pages, pagination and the feed change with it); last, a page's code edited.
    appendFileSync(site.file('content/news/bench-article-7.md'), '\nOne more paragraph, written in CI.\n');
    const edited = await timedBuild(site.dir);
    writeFileSync(site.file(`content/news/bench-article-${size}.md`), articleMarkdown(size));
    const added = await timedBuild(site.dir);
    // A change to the site's code that no card or Markdown plugin imports: pages render again, nothing is drawn.
    appendFileSync(site.file('site/pages/legal.tsx'), '\nexport const benchEdit = 1;\n');
    const siteEdited = await timedBuild(site.dir);
    // The search's reference, in this run: Pagefind's own CLI over the same output, and the two CI
    // cases again with search turned off (the site's `search` option taken out).
    const cli = await pagefindCliTime(site.file('dist'));
    const off = await withoutSearch(site, size);
    for (const [name, run] of [
      ['full build (cold)', cold],
      ['nothing changed', warm],
      ['one body edited', edited],
      ['one new article', added],
      ['site code edited', siteEdited],
      ['edited, search off', off.edited],
      ['new, search off', off.added],
    ] as const) {
      console.log(`${String(size).padStart(5)} articles, ${name.padEnd(17)} ${describe(run)}`);
      console.log(`    ${run.line}`);
    }
    // Inside a build the index is made while the drawing and checks run; alone, its cost as a share of the builds.
    console.log(
      `    search index alone: ${search.pages} pages in ${seconds(search.ms)}, ${((100 * search.ms) / cold.wallMs).toFixed(1)} % of the cold build's wall time, ${(search.ms / edited.wallMs).toFixed(2)}x the one-body-edit build's`,
    );
    // The two CI cases left their articles: the floor and the cards below count them too.
    const floor = await conversionFloor(site.file('content/news'));
    console.log(
      `${String(size).padStart(5)} articles, conversion floor  ${seconds(floor.wallMs).padStart(8)}   (2 processes, converting ${floor.convertMs.map((ms) => seconds(ms)).join(' and ')} of it)   CPU ${seconds(floor.cpuMs)}`,
    );
    console.log(
      `    cold build / floor: wall ${(cold.wallMs / floor.wallMs).toFixed(2)}x, CPU ${(cold.cpuMs / floor.cpuMs).toFixed(2)}x (CPU beyond the floor's: ${seconds(cold.cpuMs - floor.cpuMs)})`,
    );
    const cards = await cardsAlone(site.dir, site.file('content/news'));
    const perCard = cards.cpuMs / cards.cards;
    const perFloor = cards.floor.cpuMs / cards.cards;
    console.log(
      `    share cards alone: ${cards.cards} drawn in one process in ${seconds(cards.wallMs)}, CPU ${seconds(cards.cpuMs)}: ${perCard.toFixed(1)} ms of CPU and ${(cards.bytes / cards.cards / 1024).toFixed(1)} KB a card; ${size + 1} cards are about ${Math.round((100 * perCard * (size + 1)) / cold.cpuMs)} % of the cold build's CPU`,
    );
    console.log(
      `    card floor (one fixed text layer over the backdrop, encoded; same process): ${perFloor.toFixed(1)} ms of CPU a card (wall ${(cards.floor.wallMs / cards.cards).toFixed(1)} ms); a card is ${(perCard / perFloor).toFixed(2)}x it`,
    );
    if (astro) {
      console.log(
        `${String(size).padStart(5)} articles, ${astro.name.padEnd(17)} ${seconds(astro.wallMs).padStart(8)}   CPU ${seconds(astro.cpuMs)}   peak ${formatPeaks(astro.peaks)}`,
      );
      console.log(
        `    cold build / Astro's: wall ${(cold.wallMs / astro.wallMs).toFixed(2)}x, CPU ${(cold.cpuMs / astro.cpuMs).toFixed(2)}x`,
      );
    }
    console.log(`    Pagefind's CLI alone over the same output: ${seconds(cli)}`);
    const mainPeak = Math.max(0, ...cold.peaks.filter((peak) => peak.kind === 'main').map((peak) => peak.peakMb));
    const anyPeak = Math.max(0, ...cold.peaks.map((peak) => peak.peakMb));
    const editGoalMs = size <= 1000 ? 1000 : 3000;
    const goals = [
      astro
        ? `cold build at most 0.75 of Astro's: ${(cold.wallMs / astro.wallMs).toFixed(2)}x ${cold.wallMs <= 0.75 * astro.wallMs ? 'met' : 'NOT met'}`
        : `cold build at most 0.75 of Astro's: not measured (${astroMissing})`,
      `a card at most 1.5x the card floor: ${(perCard / perFloor).toFixed(2)}x ${perCard <= 1.5 * perFloor ? 'met' : 'NOT met'}`,
      `cold build within 2x the floor: ${(cold.wallMs / floor.wallMs).toFixed(2)}x ${cold.wallMs <= 2 * floor.wallMs ? 'met' : 'NOT met'}`,
      `site code edited under 3 s: ${seconds(siteEdited.wallMs)} ${siteEdited.wallMs < 3000 ? 'met' : 'NOT met'}`,
      `one body edited under ${editGoalMs / 1000} s: ${seconds(edited.wallMs)} ${edited.wallMs < editGoalMs ? 'met' : 'NOT met'}`,
      `main process peak under 1 GB: ${mainPeak} MB ${mainPeak < 1024 ? 'met' : 'NOT met'}`,
      ...searchGoals(size, { edited, added, cli, off, anyPeak }),
    ];
    console.log(`    goals: ${goals.join('; ')}`);
  } finally {
    await site.dispose();
  }
}

/** The cold build of `size` articles by this tree and by REF (its own site, the same articles), alternating, --runs times each. */
async function coldAgainst(size: number, ref: string, other: string): Promise<void> {
  const results: Record<string, Timed[]> = { 'this tree': [], [ref]: [] };
  const ours = await generatedSite(repoRoot, size);
  const theirs = await generatedSite(other, size);
  try {
    for (let run = 0; run < runs; run++) {
      for (const [name, site, cli] of [
        ['this tree', ours, cliPath],
        [ref, theirs, path.join(other, 'bin', 'ssg.js')],
      ] as const) {
        await site.remove('dist');
        await site.remove('.cache');
        results[name]!.push(await timedBuild(site.dir, cli));
      }
    }
  } finally {
    await ours.dispose();
    await theirs.dispose();
  }
  console.log(`${String(size).padStart(5)} articles, cold build against ${ref}, alternating, ${runs} run(s) each:`);
  for (const [name, list] of Object.entries(results)) {
    const runsText = list
      .map((run) => `${seconds(run.wallMs)} (CPU ${seconds(run.cpuMs)}, peak ${formatPeaks(run.peaks)})`)
      .join('; ');
    console.log(
      `    ${name.padEnd(12)} median ${seconds(median(list.map((run) => run.wallMs)))} (CPU ${seconds(median(list.map((run) => run.cpuMs)))}); ${runsText}`,
    );
  }
}

/** One cold start: a fresh copy of the site at `from` (no .cache, no dist) built by `cli` (REF's CLI builds REF's own site). */
async function coldStart(cli: string, from = repoRoot): Promise<{ wallMs: number; cpuMs: number }> {
  const site = await siteCopy(from);
  try {
    return await timedBuild(site.dir, cli);
  } finally {
    await site.dispose();
  }
}

async function coldStarts(against: { ref: string; root: string } | undefined): Promise<void> {
  console.log(
    `\nCold start of this site (its ${readdirSync(path.join(repoRoot, 'content', 'news')).length} article file(s), no .cache, no dist), ${runs} run(s) each`,
  );
  const results: Record<string, Array<{ wallMs: number; cpuMs: number }>> = { 'this tree': [] };
  if (against) results[against.ref] = [];
  for (let run = 0; run < runs; run++) {
    results['this tree']!.push(await coldStart(cliPath));
    if (against) results[against.ref]!.push(await coldStart(path.join(against.root, 'bin', 'ssg.js'), against.root));
  }
  for (const [name, list] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(12)} median ${seconds(median(list.map((run) => run.wallMs)))} (CPU ${seconds(median(list.map((run) => run.cpuMs)))}); runs ${list.map((run) => seconds(run.wallMs)).join(', ')}`,
    );
  }
}

const against = values.against ? { ref: values.against, ...worktreeOf(values.against) } : undefined;
try {
  console.log('Full builds of generated sites (wall time of the whole CLI process, start-up included)\n');
  for (const size of sizes) {
    await sizeRuns(size);
    if (against) await coldAgainst(size, against.ref, against.root);
  }
  await coldStarts(against);
} finally {
  against?.dispose();
}
