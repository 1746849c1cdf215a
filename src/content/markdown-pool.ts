import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatorModulePaths, generatorRoot } from '../project.ts';
import { availableParallelism } from 'node:os';
import type { MarkdownBatchResult } from './markdown-worker.ts';
import { convertOne, type ArticleConverter, type ArticleToConvert, type ConvertedArticle, type HelperImageSettings } from './conversion.ts';

export type { ArticleConverter } from './conversion.ts';
import { noInterrupts, type Interrupts } from '../interrupt.ts';
import { catalogueError } from '../errors.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';

/** Below this many conversions the main thread does them: a helper costs more to start. */
const HELPERS_FROM = 64;
const BATCH = 16;
const HELPER_FILE = /^markdown-helper-(\d+)\.mjs$/;

/** Helper scripts of builds that were killed before they could remove theirs. */
function removeStaleHelperFiles(cacheDir: string): void {
  removeFilesOfEndedProcesses(cacheDir, HELPER_FILE);
}

type OnBatch = (indexes: number[], converted: ConvertedArticle[]) => void;

export interface MarkdownPool {
  /** Converts every article; `onBatch` hears of each finished batch (by index) as it lands. */
  convert(items: readonly ArticleToConvert[], onBatch?: OnBatch): Promise<ConvertedArticle[]>;
  close(): Promise<void>;
}

/**
 * sharp loads its native binary at run time: the helper imports it where the generator finds it,
 * by its absolute path (the helper file lives in the site's cache folder, not beside the generator).
 */
const nativeExternal = {
  name: 'native-external',
  setup(build: { onResolve(options: { filter: RegExp }, callback: () => { path: string; external: boolean }): void }) {
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: pathToFileURL(createRequire(path.join(generatorRoot, 'package.json')).resolve('sharp')).href, external: true }));
  },
};

/**
 * The helper script the package ships, compiled beside the CLI into lib/ (scripts/build-package.js):
 * used when the generator itself runs compiled. Run from its TypeScript sources (a checkout whose
 * sources changed, the tests), the generator compiles the helper from those sources instead.
 */
function shippedHelper(): string | undefined {
  const file = path.join(generatorRoot, 'lib', 'markdown-helper.js');
  return !fileURLToPath(import.meta.url).endsWith('.ts') && existsSync(file) ? file : undefined;
}

/** Compiles the helper script to plain JavaScript at `helperFile`. */
async function compileHelper(helperFile: string): Promise<void> {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(generatorRoot, 'src', 'content', 'markdown-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: helperFile,
    logLevel: 'silent',
    nodePaths: generatorModulePaths,
    absWorkingDir: generatorRoot,
    // Packages written as CommonJS (some of the HTML parser's) require Node's modules.
    banner: { js: "import { createRequire as __ssgRequire } from 'node:module'; const require = __ssgRequire(import.meta.url);" },
    plugins: [nativeExternal],
  });
}

/** The helpers name the cache folder they work for on their command line: `ps` tells whose they are. */
function forkHelpers(helperFile: string, size: number, cacheDir: string): ChildProcess[] {
  return Array.from({ length: size }, () => {
    const helper = fork(helperFile, [`--for=${cacheDir}`], {
      // Parsing Markdown allocates a great deal: a larger young generation, fewer collections.
      execArgv: ['--max-semi-space-size=64'],
      cwd: generatorRoot,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // A send to a helper that ended (EPIPE) is told to its callback; its exit ends the batch.
    helper.on('error', () => {});
    return helper;
  });
}

/** Converts on the main thread, as one batch. */
async function convertInProcess(items: readonly ArticleToConvert[], converter: ArticleConverter, onBatch?: OnBatch): Promise<ConvertedArticle[]> {
  const results: ConvertedArticle[] = [];
  for (const item of items) results.push(await convertOne(() => converter.here(item)));
  onBatch?.(items.map((_, index) => index), results);
  return results;
}

/** The indexes of `count` sources, in batches of BATCH. */
function batchesOf(count: number): number[][] {
  const batches: number[][] = [];
  for (let first = 0; first < count; first += BATCH) {
    batches.push(Array.from({ length: Math.min(BATCH, count - first) }, (_, offset) => first + offset));
  }
  return batches;
}

interface BatchJob {
  items: readonly ArticleToConvert[];
  settings: HelperImageSettings;
  batches: number[][];
  /** The next batch nobody has taken, if any is left. */
  take: () => number | undefined;
  results: ConvertedArticle[];
  onBatch?: OnBatch;
}

/**
 * Feeds one helper batches, one at a time, until none is left; rejects, naming the batch's
 * articles, if the helper ends (killed, out of memory). Nothing is sent to a helper that ended.
 */
function runHelper(helper: ChildProcess, job: BatchJob): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let current: number | undefined;
    let ended = false;
    const finish = () => {
      ended = true;
      helper.off('message', receive);
      helper.off('exit', exited);
    };
    const done = () => {
      finish();
      resolve();
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      finish();
      const files = current === undefined ? ['its first batch'] : job.batches[current]!.map((index) => job.items[index]!.file);
      reject(catalogueError('MarkdownHelperEnded', [signal ? `stopped by ${signal}` : `exit code ${code}`, files]));
    };
    const send = () => {
      const batch = job.take();
      if (batch === undefined) return done();
      current = batch;
      // A helper that ended in between: its exit event rejects.
      helper.send({ batch, settings: job.settings, items: job.batches[batch]!.map((index) => job.items[index]!) }, (error) => error && helper.kill());
    };
    const receive = (message: MarkdownBatchResult | 'ready') => {
      if (message === 'ready' || ended) return;
      const indexes = job.batches[message.batch]!;
      indexes.forEach((index, position) => (job.results[index] = message.converted[position]!));
      job.onBatch?.(indexes, message.converted);
      send();
    };
    helper.on('message', receive);
    helper.once('exit', exited);
    send();
  });
}

/**
 * Markdown conversion in helper processes, one per core. Measured on this 2-core machine, two
 * worker threads in one process converted no faster than one (their garbage collectors share the
 * process's helper threads), and separate processes never slower; so processes it is.
 */
export function createMarkdownPool(options: { cacheDir: string; converter: ArticleConverter; size?: number; interrupts?: Interrupts }): MarkdownPool {
  const interrupts = options.interrupts ?? noInterrupts;
  const size = Math.max(1, options.size ?? availableParallelism());
  let helpers: ChildProcess[] | undefined;
  let helperFile: string | undefined;
  let unregister = () => {};
  const stop = () => {
    for (const helper of helpers ?? []) helper.kill();
    helpers = undefined;
    if (helperFile) rmSync(helperFile, { force: true });
    helperFile = undefined;
    unregister();
  };
  const start = async () => {
    if (helpers) return helpers;
    unregister = interrupts.on(stop);
    const shipped = shippedHelper();
    if (shipped) return (helpers = forkHelpers(shipped, size, options.cacheDir));
    // The helper runs as plain JavaScript, compiled here: loaded through the TypeScript loader,
    // the same conversions cost 60 % more CPU.
    mkdirSync(options.cacheDir, { recursive: true });
    removeStaleHelperFiles(options.cacheDir);
    helperFile = path.join(options.cacheDir, `markdown-helper-${process.pid}.mjs`);
    await compileHelper(helperFile);
    helpers = forkHelpers(helperFile, size, options.cacheDir);
    return helpers;
  };

  return {
    async convert(items, onBatch) {
      if (items.length < HELPERS_FROM) return convertInProcess(items, options.converter, onBatch);
      const pool = await start();
      const batches = batchesOf(items.length);
      let next = 0;
      const take = () => (next < batches.length ? next++ : undefined);
      const results: ConvertedArticle[] = new Array(items.length);
      const settings = options.converter.helperSettings;
      await Promise.all(pool.map((helper) => runHelper(helper, { items, settings, batches, take, results, onBatch })));
      return results;
    },
    async close() {
      stop();
    },
  };
}
