// npm run bench [-- --sizes 1000,5000]
// For each size: a temporary copy of the site with that many generated articles (about 620 words
// of varied Markdown each), a full build from cold (no cache), then a build with nothing changed.
// Prints wall time, ms per page and peak memory, as the CLI process measured them; then the
// conversion floor of the same articles (two processes doing nothing but converting their bodies
// with the same unified pipeline, each half of them) and the cold build's ratio to it.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliPath, copySite, repoRoot } from '../tests/helpers/project.ts';
import { writeArticles } from './bench/articles.ts';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,5000' } } });
const sizes = values.sizes!.split(',').map(Number);

function timedBuild(cwd: string): Promise<{ wallMs: number; pages: number; peakMb: number; line: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cliPath, 'build'], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      const match = /Built (\d+) pages.*peak memory (\d+) MB/.exec(out);
      if (code !== 0 || !match) return reject(new Error(`build failed (${code}):\n${out}\n${err}`));
      resolve({ wallMs, pages: Number(match[1]), peakMb: Number(match[2]), line: out.trim().split('\n').slice(-2).join('\n    ') });
    });
  });
}

/** Wall time of two processes converting half of the articles' bodies each (start-up included). */
async function conversionFloor(dir: string): Promise<{ wallMs: number; convertMs: number[] }> {
  const files = readdirSync(dir).filter((name) => name.endsWith('.md')).map((name) => path.join(dir, name));
  const halves = [files.filter((_, index) => index % 2 === 0), files.filter((_, index) => index % 2 === 1)];
  const started = performance.now();
  const convertMs = await Promise.all(
    halves.map(
      (half) =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', 'bench', 'floor.ts')], {
            cwd: repoRoot,
            stdio: ['pipe', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (chunk) => (out += chunk));
          child.on('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`the floor process failed (${code})`))));
          child.stdin.end(half.join('\n'));
        }),
    ),
  );
  return { wallMs: performance.now() - started, convertMs };
}

console.log('Full builds of generated sites (wall time of the whole CLI process, start-up included)\n');
for (const size of sizes) {
  const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'data']);
  try {
    await writeArticles(site.file('content/news'), size);
    const cold = await timedBuild(site.dir);
    const warm = await timedBuild(site.dir);
    for (const [name, run] of [['full build (cold)', cold], ['nothing changed', warm]] as const) {
      console.log(
        `${String(size).padStart(5)} articles, ${name.padEnd(17)} ${(run.wallMs / 1000).toFixed(2).padStart(6)} s   ${(run.wallMs / run.pages).toFixed(2).padStart(5)} ms/page   peak ${run.peakMb} MB (main process)`,
      );
      console.log(`    ${run.line}`);
    }
    const floor = await conversionFloor(site.file('content/news'));
    console.log(
      `${String(size).padStart(5)} articles, conversion floor  ${(floor.wallMs / 1000).toFixed(2).padStart(6)} s   (2 processes, converting ${floor.convertMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(' and ')} of it)   cold build / floor ${(cold.wallMs / floor.wallMs).toFixed(2)}x`,
    );
  } finally {
    await site.dispose();
  }
}
