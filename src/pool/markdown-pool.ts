// Markdown conversion, and drawing, in helper processes: a pool of them for a run, started with
// the first work worth them and ended on close().
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { DrawResult, HelperRequest, MarkdownBatchResult } from './markdown-worker.ts';
import type { DrawJob, DrawMany } from '../content/drawing.ts';
import type {
  ArticleConverter,
  ArticleToConvert,
  BatchConverter,
  ConvertedArticle,
  HelperImageSettings,
  OnBatch,
} from '../content/conversion.ts';
import { DEFAULT_LIMITS, type ArticleLimits } from '../content/limits.ts';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { compileHelper, forkHelper, shippedHelper, type SpareHelper } from './helper-process.ts';
import { dispatcher, type AddTask } from './helper-dispatcher.ts';

export type { ArticleConverter } from '../content/conversion.ts';

const BATCH = 16;
/** Below this many drawings (and no helper running) this process draws them: a helper costs more to start. */
const DRAW_HELPERS_FROM = 24;
const HELPER_FILE = /^markdown-helper-(\d+)\.mjs$/;

/** Helper scripts of builds that were killed before they could remove theirs. */
function removeStaleHelperFiles(cacheDir: string): void {
  removeFilesOfEndedProcesses(cacheDir, HELPER_FILE);
}

const closedError = () => new Error('the Markdown helpers were closed');

export type { OnBatch } from '../content/conversion.ts';

export interface MarkdownPool extends BatchConverter {
  /** Draws generated files with the site's drawers: in the helpers when many (or they run already), else here. */
  draw: DrawMany;
  /** Ends the helpers once they have no more work (the drawing they were given goes on). */
  release(): Promise<void>;
  close(): Promise<void>;
}

/** The indexes of `count` sources, in batches of BATCH. */
function batchesOf(count: number): number[][] {
  const batches: number[][] = [];
  for (let first = 0; first < count; first += BATCH) {
    batches.push(Array.from({ length: Math.min(BATCH, count - first) }, (_, offset) => first + offset));
  }
  return batches;
}

/** Converts in the helpers, in batches; `onBatch` hears of each as it lands. */
async function convertInHelpers(
  add: AddTask,
  items: readonly ArticleToConvert[],
  settings: HelperImageSettings,
  onBatch?: OnBatch,
): Promise<ConvertedArticle[]> {
  const results: ConvertedArticle[] = new Array(items.length);
  await Promise.all(
    batchesOf(items.length).map(
      (indexes, batch) =>
        new Promise<void>((resolve, reject) => {
          const message: HelperRequest = {
            kind: 'markdown',
            batch,
            settings,
            items: indexes.map((index) => items[index]!),
          };
          add('markdown', {
            message,
            files: message.items.map((item) => item.file),
            doing: 'converting',
            fail: reject,
            done: (reply) => {
              const { converted } = reply as MarkdownBatchResult;
              indexes.forEach((index, position) => (results[index] = converted[position]!));
              onBatch?.(indexes, converted);
              resolve();
            },
          });
        }),
    ),
  );
  return results;
}

/** Draws each job in a helper, once they have started; a drawing that failed there is drawn here again, where the site's source maps name its file and line. */
function drawInHelpers(
  started: Promise<{ add: AddTask }>,
  drawing: PoolDrawing,
  jobs: readonly DrawJob[],
): Array<Promise<Uint8Array>> {
  return jobs.map((job) =>
    started.then(
      ({ add }) =>
        new Promise<Uint8Array>((resolve, reject) => {
          const message: HelperRequest = {
            kind: 'draw',
            siteModule: drawing.siteModule,
            root: drawing.root,
            drawer: job.drawer,
            input: job.input,
          };
          add('draw', {
            message,
            files: [job.path],
            doing: 'drawing',
            fail: reject,
            done: (reply) => {
              const { drawn } = reply as DrawResult;
              if (drawn) resolve(new Uint8Array(drawn.buffer, drawn.byteOffset, drawn.byteLength));
              else drawing.here([job])[0]!.then(resolve, reject);
            },
          });
        }),
    ),
  );
}

/** What the pool needs to draw generated files: the site module the helpers import, and the drawing here. */
export interface PoolDrawing {
  /** A copy of the site's compiled module, which exports `site` with its `drawers`. */
  siteModule: string;
  root: string;
  /** The same drawing in this process: for a few files, and to report a helper's failure with the site's own file and line. */
  here: DrawMany;
}

/**
 * Markdown conversion, and drawing, in helper processes, one per core: worker threads in one
 * process share its garbage collector's threads and convert no faster. They start with the first
 * work worth them, and end on close().
 */
function helperLimits(limits: Pick<ArticleLimits, 'timeoutMs' | 'helperMemoryMb'> | undefined) {
  return {
    timeoutMs: limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
    memoryMb: limits?.helperMemoryMb ?? DEFAULT_LIMITS.helperMemoryMb,
  };
}

/** Where this process compiles its helper, in the cache folder, those of ended processes removed. */
function compiledHelperFile(cacheDir: string): string {
  mkdirSync(cacheDir, { recursive: true });
  removeStaleHelperFiles(cacheDir);
  return path.join(cacheDir, `markdown-helper-${process.pid}.mjs`);
}

/** Resolves once every one of `helpers` has exited, or after `ms`. */
async function exited(helpers: readonly ChildProcess[], ms: number): Promise<void> {
  await Promise.all(
    helpers.map(
      (helper) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          helper.once('exit', () => (clearTimeout(timer), resolve()));
        }),
    ),
  );
}

export function createMarkdownPool(options: {
  cacheDir: string;
  converter: ArticleConverter;
  size?: number;
  interrupts?: Interrupts;
  drawing?: PoolDrawing;
  limits?: Pick<ArticleLimits, 'timeoutMs' | 'helperMemoryMb'>;
  spare?: SpareHelper;
}): MarkdownPool {
  const interrupts = options.interrupts ?? noInterrupts;
  const size = Math.max(1, options.size ?? availableParallelism());
  const limits = helperLimits(options.limits);
  let pool: ReturnType<typeof dispatcher> | undefined;
  let starting: Promise<NonNullable<typeof pool>> | undefined;
  let helperFile: string | undefined;
  let unregister = () => {};
  const stop = () => {
    pool?.close();
    for (const helper of pool?.helpers() ?? []) helper.kill('SIGKILL');
    pool = undefined;
    starting = undefined;
    if (helperFile) rmSync(helperFile, { force: true });
    helperFile = undefined;
    unregister();
  };
  const launch = async (wanted: number) => {
    unregister = interrupts.on(stop);
    let file = shippedHelper();
    if (!file) {
      // The helper runs as plain JavaScript, compiled here: the TypeScript loader costs it CPU on every conversion.
      file = helperFile = compiledHelperFile(options.cacheDir);
      await compileHelper(helperFile);
    }
    const helper = file;
    const spare = helperFile ? undefined : options.spare?.take(limits.memoryMb);
    return (pool = dispatcher(
      () => forkHelper(helper, options.cacheDir, limits.memoryMb),
      Math.min(size, wanted),
      limits,
      spare,
    ));
  };
  let closed = false;
  // Helpers for `work` tasks, one per core at most; never after close(): late work (a drawing on its
  // way when the run failed) is refused, not given helpers that nobody would end.
  const start = (work = size) => (closed ? Promise.reject(closedError()) : (starting ??= launch(Math.max(1, work))));

  return {
    async convert(items, onBatch) {
      // Always in a helper, however few: one article designed to hang the build is stopped there,
      // and this process stays free to answer Ctrl-C.
      if (items.length === 0) return [];
      const { add } = await start(Math.ceil(items.length / BATCH));
      return convertInHelpers(add, items, options.converter.helperSettings, onBatch);
    },
    draw(jobs) {
      const drawing = options.drawing;
      if (!drawing) throw new Error('this pool was made without a site to draw with');
      // Each refused on its own: a shared rejected promise with no job to hear it would go unhandled.
      if (closed) return jobs.map(() => Promise.reject(closedError()));
      if (!pool && !starting && jobs.length < DRAW_HELPERS_FROM) return drawing.here(jobs);
      return drawInHelpers(start(), drawing, jobs);
    },
    async release() {
      const started = await starting?.catch(() => undefined);
      if (!started || started !== pool) return stop();
      await new Promise<void>((resolve) => started.onIdle(resolve));
      if (pool === started) stop();
    },
    async close() {
      closed = true;
      await starting?.catch(() => {});
      const ending = (pool?.helpers() ?? []).filter((helper) => helper.exitCode === null && helper.signalCode === null);
      stop();
      // Gone when this resolves (a second at most: SIGKILL is not refused).
      await exited(ending, 1000);
    },
  };
}
