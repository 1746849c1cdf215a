import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatorModulePaths, generatorRoot } from '../project.ts';
import { availableParallelism } from 'node:os';
import type { DrawResult, HelperReply, HelperRequest, MarkdownBatchResult } from './markdown-worker.ts';
import type { DrawJob, DrawMany } from './drawing.ts';
import { failedConversion, type ArticleConverter, type ArticleToConvert, type ConvertedArticle, type HelperImageSettings } from './conversion.ts';
import { DEFAULT_LIMITS, type ArticleLimits } from './limits.ts';

export type { ArticleConverter } from './conversion.ts';
import { noInterrupts, type Interrupts } from '../interrupt.ts';
import { catalogueError, SsgError } from '../errors.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { WARM_UP_ARTICLE, WARM_UP_CONVERSIONS } from './warm-up.ts';

const BATCH = 16;
/** What a task's clock allows beyond the budget until the helper says it started the first article (a helper loading on a busy machine). */
const START_ALLOWANCE_MS = 15_000;
/** Below this many drawings (and no helper running) this process draws them: a helper costs more to start. */
const DRAW_HELPERS_FROM = 24;
const HELPER_FILE = /^markdown-helper-(\d+)\.mjs$/;

/** Helper scripts of builds that were killed before they could remove theirs. */
function removeStaleHelperFiles(cacheDir: string): void {
  removeFilesOfEndedProcesses(cacheDir, HELPER_FILE);
}

type OnBatch = (indexes: number[], converted: ConvertedArticle[]) => void;

export interface MarkdownPool {
  /** Converts every article; `onBatch` hears of each finished batch (by index) as it lands. */
  convert(items: readonly ArticleToConvert[], onBatch?: OnBatch): Promise<ConvertedArticle[]>;
  /** Draws generated files with the site's drawers: in the helpers when many (or they run already), else here. */
  draw: DrawMany;
  /** Starts the helpers now, before any work (dev, while it waits for the first save). */
  warm(): void;
  /** Ends the helpers once they have no more work (the drawing they were given goes on). */
  release(): Promise<void>;
  /** Ends the helpers now. */
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
  // Written here, not by esbuild's own process: a build stopped meanwhile removes the file it
  // knows of, and esbuild could write it after that.
  const result = await esbuild.build({
    write: false,
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
  writeFileSync(helperFile, result.outputFiles[0]!.contents);
}

/** What V8 prints as a process runs out of heap: the helper's report of it, not the site's to read. */
const OUT_OF_MEMORY = /<--- Last few GCs --->|FATAL ERROR: .*heap|JavaScript heap out of memory/;

/** A helper process, and whether it ran out of memory (V8 said so on its standard error, which is passed on otherwise). */
interface Helper {
  process: ChildProcess;
  outOfMemory: boolean;
}

/**
 * One helper. It names the cache folder it works for on its command line (`ps` tells whose it is)
 * and may use `memoryMb` of heap: an article that needs more ends it, and is named for it.
 */
function forkHelper(helperFile: string, cacheDir: string, memoryMb: number): Helper {
  const child = fork(helperFile, [`--for=${cacheDir}`], {
    // Parsing Markdown allocates a great deal: a larger young generation, fewer collections.
    execArgv: ['--max-semi-space-size=64', `--max-old-space-size=${memoryMb}`],
    // One helper per core already: libvips (images, drawn files) on one thread each, not one per
    // core in every helper competing for the same cores. The user's own setting wins.
    env: { VIPS_CONCURRENCY: '1', ...process.env },
    cwd: generatorRoot,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const helper: Helper = { process: child, outOfMemory: false };
  child.stderr!.on('data', (chunk: Buffer) => {
    if (!helper.outOfMemory && OUT_OF_MEMORY.test(chunk.toString('latin1'))) helper.outOfMemory = true;
    if (!helper.outOfMemory) process.stderr.write(chunk);
  });
  // A send to a helper that ended (EPIPE) is told to its callback; its exit ends the batch.
  child.on('error', () => {});
  return helper;
}

/** The indexes of `count` sources, in batches of BATCH. */
function batchesOf(count: number): number[][] {
  const batches: number[][] = [];
  for (let first = 0; first < count; first += BATCH) {
    batches.push(Array.from({ length: Math.min(BATCH, count - first) }, (_, offset) => first + offset));
  }
  return batches;
}

/** One piece of work for a helper: the message it is sent, and what becomes of the answer. */
interface Task {
  message: HelperRequest;
  /** The files it works on, named if its helper ends. */
  files: readonly string[];
  doing: 'converting' | 'drawing';
  done(reply: HelperReply): void;
  fail(error: unknown): void;
}

/** What a helper is doing: its task, the file it works on now (it says as it starts each article), and the budget's timer. */
interface Busy {
  task: Task;
  file: string | undefined;
  timer: NodeJS.Timeout;
  /** Set when the timer stopped it. */
  late?: string;
}

/** The clock of one article (or drawing): past `timeoutMs`, its helper is killed and the article noted as the one that was late. */
function budgetTimer(busy: ReadonlyMap<Helper, Busy>, helper: Helper, file: string | undefined, timeoutMs: number): NodeJS.Timeout {
  return setTimeout(() => {
    const state = busy.get(helper);
    if (!state) return;
    state.late = file ?? state.task.files[0];
    helper.process.kill('SIGKILL');
  }, timeoutMs);
}

const closedError = () => new Error('the Markdown helpers were closed');

/** How a task given to a pool whose helpers all ended is failed: its article never reached one. */
const NOT_SENT = 'before its work was sent';

/** Whether a conversion failed because the pool's helpers had all ended, its article never sent. */
const endedBeforeSent = (error: unknown) => error instanceof SsgError && error.code === 'MarkdownHelperEnded' && error.message.includes(`(${NOT_SENT})`);

const helperEnded = (how: string, task: Task) => catalogueError('MarkdownHelperEnded', [how, task.files.length ? task.files : ['its first task'], task.doing]);

/** Why a helper's task failed: its article ran past its time or out of memory (named), or the helper ended. */
function helperFailure(helper: Helper, state: Busy, how: string, limits: { timeoutMs: number; memoryMb: number }) {
  const { task } = state;
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  if (state.late && task.doing === 'converting') return catalogueError('ArticleTooSlow', [seconds], { file: state.late });
  if (helper.outOfMemory && task.doing === 'converting' && state.file) return catalogueError('ArticleOutOfMemory', [limits.memoryMb], { file: state.file });
  return helperEnded(state.late ? `stopped after ${seconds} s` : how, task);
}

/**
 * Hands tasks to helpers, one at a time each: Markdown batches first (pages wait for them), then
 * drawings. Each article (each drawing) may take `timeoutMs`: a helper past it is killed, its task
 * fails naming the article (ArticleTooSlow), and a new helper takes its place; so does one that
 * ran out of memory (ArticleOutOfMemory). A helper that ends otherwise fails its task, naming its
 * files; when none is left, every task still waiting fails the same way. Nothing is sent to a
 * helper that ended.
 */
function dispatcher(spawn: () => Helper, size: number, limits: { timeoutMs: number; memoryMb: number }, ready: readonly Helper[] = []) {
  const queues: Record<'markdown' | 'draw', Task[]> = { markdown: [], draw: [] };
  const busy = new Map<Helper, Busy>();
  const live = new Set<Helper>();
  let whenIdle: (() => void) | undefined;
  let closed = false;
  const idle = () => busy.size === 0 && queues.markdown.length === 0 && queues.draw.length === 0;
  const arm = (helper: Helper, file: string | undefined, allowance = 0) => budgetTimer(busy, helper, file, limits.timeoutMs + allowance);
  const pump = () => {
    for (const helper of live) {
      if (busy.has(helper)) continue;
      const task = queues.markdown.shift() ?? queues.draw.shift();
      if (!task) return;
      // The batch's first article (or the drawing) is what the helper starts on.
      busy.set(helper, { task, file: task.files[0], timer: arm(helper, task.files[0], START_ALLOWANCE_MS) });
      helper.process.send(task.message, (error) => error && helper.process.kill()); // ended meanwhile: its exit fails the task
    }
  };
  const add = (helper: Helper) => {
    live.add(helper);
    helper.process.on('message', (reply: HelperReply | { progress: string } | 'ready') => {
      const state = busy.get(helper);
      if (reply === 'ready' || !state) return;
      clearTimeout(state.timer);
      if (typeof reply === 'object' && 'progress' in reply) {
        // The helper starts the next article of its batch: each has the whole budget.
        state.file = reply.progress;
        state.timer = arm(helper, reply.progress);
        return;
      }
      busy.delete(helper);
      state.task.done(reply);
      pump();
      if (idle()) whenIdle?.();
    });
    helper.process.once('exit', (code, signal) => {
      live.delete(helper);
      const how = signal ? `stopped by ${signal}` : `exit code ${code}`;
      const state = busy.get(helper);
      busy.delete(helper);
      if (state) {
        clearTimeout(state.timer);
        state.task.fail(helperFailure(helper, state, how, limits));
        // Stopped for one article's sake: the others go on in a new helper.
        if (!closed && (state.late || helper.outOfMemory)) {
          add(spawn());
          pump();
          if (idle()) whenIdle?.();
          return;
        }
      }
      if (live.size > 0) return;
      for (const waiting of [...queues.markdown.splice(0), ...queues.draw.splice(0)]) waiting.fail(helperEnded(how, waiting));
      if (idle()) whenIdle?.();
    });
  };
  // Helpers started ahead of the pool (a build's spare), then new ones up to the size.
  const started = ready.filter((helper) => helper.process.exitCode === null && helper.process.signalCode === null).slice(0, size);
  for (const helper of started) add(helper);
  for (let count = started.length; count < size; count++) add(spawn());
  return {
    /** The helpers running now. */
    helpers: () => [...live].map((helper) => helper.process),
    /** No helper is started again after this. */
    close() {
      closed = true;
      for (const state of busy.values()) clearTimeout(state.timer);
    },
    /** Calls `then` once no task is running or waiting (now, if none is). */
    onIdle(then: () => void) {
      whenIdle = then;
      if (idle()) then();
    },
    add(kind: 'markdown' | 'draw', task: Task) {
      if (live.size === 0) return task.fail(helperEnded(NOT_SENT, task));
      queues[kind].push(task);
      pump();
    },
  };
}

type AddTask = ReturnType<typeof dispatcher>['add'];

/** Converts in the helpers, in batches; `onBatch` hears of each as it lands. */
async function convertInHelpers(add: AddTask, items: readonly ArticleToConvert[], settings: HelperImageSettings, onBatch?: OnBatch): Promise<ConvertedArticle[]> {
  const results: ConvertedArticle[] = new Array(items.length);
  await Promise.all(
    batchesOf(items.length).map(
      (indexes, batch) =>
        new Promise<void>((resolve, reject) => {
          const message: HelperRequest = { kind: 'markdown', batch, settings, items: indexes.map((index) => items[index]!) };
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
function drawInHelpers(started: Promise<{ add: AddTask }>, drawing: PoolDrawing, jobs: readonly DrawJob[]): Array<Promise<Uint8Array>> {
  return jobs.map((job) =>
    started.then(
      ({ add }) =>
        new Promise<Uint8Array>((resolve, reject) => {
          const message: HelperRequest = { kind: 'draw', siteModule: drawing.siteModule, root: drawing.root, drawer: job.drawer, input: job.input };
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

/** Converts one article at a time in a helper kept between calls (dev's edits): each with the time and memory budget of a build's. */
export interface EditConverter {
  /** The article converted, or its problems (its time budget passed among them). */
  convert(item: ArticleToConvert, converter: ArticleConverter): Promise<ConvertedArticle>;
  /**
   * Starts the helper for these settings before the first edit, so that one costs no process
   * start, and has it convert a sample article a few times (see warm-up.ts). Settles when that is
   * done (or failed: warming never fails).
   */
  warm(converter: ArticleConverter): Promise<void>;
  /** Ends the helper. */
  close(): Promise<void>;
}

/**
 * Dev's converter of edited articles: one helper, started on the first edit and kept, so a save
 * costs a message, not a process start; started anew when the site's Markdown settings change
 * (a new copy of its module: the helper would keep the old plugins). An article that passes its
 * time budget is its problem, as in a build; the helper taking its place converts the next.
 */
export function createEditConverter(options: { cacheDir: string; interrupts?: Interrupts; limits?: Pick<ArticleLimits, 'timeoutMs' | 'helperMemoryMb'> }): EditConverter {
  let current: { pool: MarkdownPool; settings: string } | undefined;
  const poolFor = async (converter: ArticleConverter) => {
    const settings = JSON.stringify(converter.helperSettings);
    if (current && current.settings !== settings) {
      await current.pool.close();
      current = undefined;
    }
    return (current ??= { pool: createMarkdownPool({ ...options, converter, size: 1 }), settings });
  };
  return {
    async warm(converter) {
      try {
        const { pool } = await poolFor(converter);
        const sample = { markdown: WARM_UP_ARTICLE, file: 'warm-up.md', bodyLine: 1 };
        await pool.convert(Array.from({ length: WARM_UP_CONVERSIONS }, () => sample));
      } catch {
        // Only slower first saves.
      }
    },
    async convert(item, converter) {
      for (let attempt = 1; ; attempt++) {
        const { pool } = await poolFor(converter);
        try {
          return (await pool.convert([item]))[0]!;
        } catch (error) {
          // Its helper ended by itself (killed, or it could not start): the pool is done, and the
          // next conversion starts a new one. An article that never reached it is sent there now.
          if (error instanceof SsgError && error.code === 'MarkdownHelperEnded' && current?.pool === pool) {
            current = undefined;
            void pool.close().catch(() => {});
            if (attempt === 1 && endedBeforeSent(error)) continue;
          }
          // Its helper ran out of time or memory for it: its problem, as a build reports it.
          return failedConversion(error);
        }
      }
    },
    async close() {
      await current?.pool.close();
      current = undefined;
    },
  };
}

/** What the pool needs to draw generated files: the site module the helpers import, and the drawing here. */
export interface PoolDrawing {
  /** A copy of the site's compiled module, which exports `site` with its `drawers`. */
  siteModule: string;
  root: string;
  /** The same drawing in this process: for a few files, and to report a helper's failure with the site's own file and line. */
  here: DrawMany;
}

/** Helpers started before any pool wanted them (see startSpareHelper), by cache folder and heap. */
const spares = new Map<string, Helper>();
const spareKey = (cacheDir: string, memoryMb: number) => `${path.resolve(cacheDir)}\0${memoryMb}`;

/**
 * Starts one helper now, ahead of the pool that will want it: a build that is going to convert
 * starts it as it begins, so the helper loads while the build reads its inputs, and converting the
 * one article a push changed waits for no process start. Only the shipped helper (lib/). The
 * returned function ends it if no pool took it (a build that converted nothing).
 */
export function startSpareHelper(options: { cacheDir: string; interrupts?: Interrupts; limits?: Pick<ArticleLimits, 'helperMemoryMb'> }): () => void {
  const file = shippedHelper();
  const memoryMb = options.limits?.helperMemoryMb ?? DEFAULT_LIMITS.helperMemoryMb;
  const key = spareKey(options.cacheDir, memoryMb);
  if (!file || spares.has(key)) return () => {};
  const helper = forkHelper(file, options.cacheDir, memoryMb);
  spares.set(key, helper);
  const end = () => {
    if (spares.get(key) === helper) {
      spares.delete(key);
      helper.process.kill('SIGKILL');
    }
    unregister();
  };
  const unregister = (options.interrupts ?? noInterrupts).on(end);
  return end;
}

/** The spare helper of this folder and heap, taken (no longer the spare's to end). */
function takeSpare(cacheDir: string, memoryMb: number): Helper[] {
  const key = spareKey(cacheDir, memoryMb);
  const helper = spares.get(key);
  spares.delete(key);
  return helper ? [helper] : [];
}

/**
 * Markdown conversion, and drawing, in helper processes, one per core. Measured on this 2-core
 * machine, two worker threads in one process converted no faster than one (their garbage
 * collectors share the process's helper threads), and separate processes never slower; so
 * processes it is. They start with the first work that is worth them, and end on close().
 */
export function createMarkdownPool(options: { cacheDir: string; converter: ArticleConverter; size?: number; interrupts?: Interrupts; drawing?: PoolDrawing; limits?: Pick<ArticleLimits, 'timeoutMs' | 'helperMemoryMb'> }): MarkdownPool {
  const interrupts = options.interrupts ?? noInterrupts;
  const size = Math.max(1, options.size ?? availableParallelism());
  const limits = { timeoutMs: options.limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs, memoryMb: options.limits?.helperMemoryMb ?? DEFAULT_LIMITS.helperMemoryMb };
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
      // The helper runs as plain JavaScript, compiled here: loaded through the TypeScript loader,
      // the same conversions cost 60 % more CPU.
      mkdirSync(options.cacheDir, { recursive: true });
      removeStaleHelperFiles(options.cacheDir);
      file = helperFile = path.join(options.cacheDir, `markdown-helper-${process.pid}.mjs`);
      await compileHelper(helperFile);
    }
    const helper = file;
    const spare = helperFile ? [] : takeSpare(options.cacheDir, limits.memoryMb);
    return (pool = dispatcher(() => forkHelper(helper, options.cacheDir, limits.memoryMb), Math.min(size, wanted), limits, spare));
  };
  let closed = false;
  /**
   * Starts the helpers for `work` tasks, as many as there are cores at most (one article pushed: one
   * helper). Never after close(): late work (a drawing still on its way when the run failed) is
   * refused, not given helpers that nobody would end.
   */
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
    warm() {
      start().catch(() => {});
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
      await Promise.all(ending.map((helper) => new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        helper.once('exit', () => (clearTimeout(timer), resolve()));
      })));
    },
  };
}
