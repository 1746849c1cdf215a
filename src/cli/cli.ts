import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_LIMITS, type ArticleLimits } from '../content/limits.ts';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoredMessage } from '../server/message.ts';
import { catalogueError, formatAnyError, isExpectedError, isUsageError } from '../errors.ts';
import { generatorRoot } from '../project.ts';
import { createInterrupts } from '../interrupt.ts';
import { progressLine } from './progress.ts';
import { formatSummary, formatTimings, summaryRows } from './summary.ts';
import { formatMs, paint, useColor } from './terminal.ts';

const USAGE_EXIT = 2;
const FAILURE_EXIT = 1;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('Give a port from 0 to 65535.');
  return port;
}

/** A whole number from 1 to `max` (a limit's option). */
function positiveWhole(max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1 || number > max) throw new InvalidArgumentError(`Give a whole number from 1 to ${max}.`);
    return number;
  };
}

/** What one article may cost, as the options of build and dev give it (see docs/reference/limits.md). */
interface LimitOptions {
  maxArticleKb?: number;
  maxNesting?: number;
  articleSeconds?: number;
}

/** The limits' options, shared by build and dev. */
function withLimitOptions(command: Command): Command {
  return command
    .option('--max-article-kb <kb>', `largest article file, in KB (default: ${DEFAULT_LIMITS.maxBytes / 1024})`, positiveWhole(1024 * 1024))
    .option('--max-nesting <levels>', `deepest nesting of lists and block quotes in an article (default: ${DEFAULT_LIMITS.maxDepth})`, positiveWhole(10_000))
    .option('--article-seconds <s>', `longest one article's conversion may take, in seconds (default: ${DEFAULT_LIMITS.timeoutMs / 1000})`, positiveWhole(24 * 3600));
}

function limitsOf(options: LimitOptions): ArticleLimits {
  return {
    ...DEFAULT_LIMITS,
    ...(options.maxArticleKb ? { maxBytes: options.maxArticleKb * 1024 } : {}),
    ...(options.maxNesting ? { maxDepth: options.maxNesting } : {}),
    ...(options.articleSeconds ? { timeoutMs: options.articleSeconds * 1000 } : {}),
  };
}

interface GlobalOptions {
  root: string;
  verbose?: boolean;
}

/** What failed, as the first line of the report: the command's own words. */
type FailureHeading = 'Build failed' | 'Dev server failed' | 'Preview failed' | 'Serve failed' | 'Inbox failed' | 'Init failed' | 'Failed';

function reportFailure(error: unknown, verbose: boolean, heading: FailureHeading): void {
  const colors = paint(useColor(process.stderr));
  const text = formatAnyError(error, { verbose });
  process.stderr.write(`${colors.red(heading)}\n${text}\n`);
  process.exitCode = isUsageError(error) ? USAGE_EXIT : FAILURE_EXIT;
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * A build (or init) stopped by a signal removes what it made (staging folder, lock, helper
 * processes: registered with the registrar returned, which the command passes down) and exits
 * as a process killed by that signal would.
 */
function cleanUpOnSignal(what = 'Build'): ReturnType<typeof createInterrupts> {
  const interrupts = createInterrupts();
  for (const signal of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) {
    process.once(signal, () => {
      process.stderr.write(`${what} stopped (${signal}); ${interrupts.outcome()}.\n`);
      interrupts.runAll();
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
  return interrupts;
}

/** How long dev and preview may take to close on a signal before they exit all the same. */
const CLOSE_DEADLINE_MS = 1500;

/**
 * On Ctrl-C or SIGTERM: close once, then exit. Dev and preview (`drain: false`) exit as a process
 * ended by that signal would (130, 143), within CLOSE_DEADLINE_MS whatever closing does. The
 * production server (`drain: true`) finishes the requests in flight, as its orchestrator expects,
 * and exits 0 (1 if closing failed); a second signal while it drains ends it at once (130, 143).
 */
function stopOnSignal(close: () => Promise<void>, verbose: boolean, heading: FailureHeading, options: { drain: boolean; announce?: (signal: string) => void }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    }
    stopping = true;
    options.announce?.(signal);
    const code = options.drain ? 0 : SIGNAL_EXIT[signal] ?? 1;
    if (!options.drain) setTimeout(() => process.exit(code), CLOSE_DEADLINE_MS).unref();
    close().then(
      () => process.exit(code),
      (error: unknown) => {
        reportFailure(error, verbose, heading);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * The version in the generator's package.json: the nearest one up from this file that declares the
 * `ssg` command (this file runs from src/ or from its compiled copy in .cache/).
 */
export function generatorVersion(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let depth = 0; depth < 32; depth++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; bin?: unknown };
      if (typeof manifest.version === 'string' && typeof manifest.bin === 'object' && manifest.bin !== null && 'ssg' in manifest.bin) return manifest.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}

export function createProgram(): Command {
  const program = new Command('ssg')
    .description('Prerender a React site to static HTML.')
    .version(generatorVersion(), '-V, --version', 'print the version of ssg')
    .option('-C, --root <dir>', 'the site folder', '.')
    .option('--verbose', 'show stack traces and causes of errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  addInitCommand(program);
  addBuildCommand(program);
  addDevCommand(program);
  addPreviewCommand(program);
  addServeCommand(program);
  addInboxCommands(program);
  return program;
}

function addInitCommand(program: Command): void {
  program
    .command('init')
    .description('create a new site (a page, an island, an article) in a folder that does not exist yet or is empty')
    .argument('<folder>', 'the folder to create the site in')
    .action(async (folder: string, _options: unknown, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      // A signal while init writes undoes what it wrote (its clean-up is registered).
      const interrupts = cleanUpOnSignal('Init');
      try {
        const { initSite } = await import('./init.ts');
        const result = await initSite(folder, path.resolve(global.root), interrupts);
        const shown = path.relative(process.cwd(), result.target) || '.';
        const ssg = ssgCommandFor(result.target);
        const next = shown === '.' ? [`${ssg} dev`, `${ssg} build`] : [`cd ${shellWord(shown)}`, `${ssg} dev`];
        process.stdout.write(`Created a site in ${shown} (${result.files.length} files). Next:\n${next.map((line) => `  ${line}\n`).join('')}`);
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Init failed');
      }
    });
}

/** A folder name as a POSIX shell reads it back (quoted unless plain; never read as an option). */
function shellWord(word: string): string {
  const safe = word.startsWith('-') ? `./${word}` : word;
  return /^[\w./-]+$/.test(safe) ? safe : `'${safe.replaceAll("'", "'\\''")}'`;
}

/**
 * How to run this ssg from `site`: `npx ssg` when npm finds this very package from there (a
 * node_modules/ssg above it that is this one); otherwise this CLI by its path, since npx would
 * look the name up elsewhere.
 */
function ssgCommandFor(site: string): string {
  const own = realpathOrSelf(generatorRoot);
  for (let dir = site; ; dir = path.dirname(dir)) {
    if (realpathOrSelf(path.join(dir, 'node_modules', 'ssg')) === own) return 'npx ssg';
    if (path.dirname(dir) === dir) return `node ${shellWord(path.join(generatorRoot, 'bin', 'ssg.js'))}`;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

interface BuildOptions {
  out: string;
  baseUrl?: string;
  drafts?: boolean;
  future?: boolean;
  emptyOutDir?: boolean;
  watch?: boolean;
}

function addBuildCommand(program: Command): void {
  const command = program
    .command('build')
    .description('build the site into a folder ready to upload to any web server')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--base-url <url>', 'absolute origin for canonical links, feeds and the sitemap (default: baseUrl in content/site.yaml)')
    .option('--drafts', 'include articles marked "draft: true" (kept out of the sitemap and feed, marked noindex)')
    .option('--future', 'include articles dated in the future (held back until their date otherwise)')
    .option('--empty-out-dir', 'replace the contents of an output folder the build did not write (.git, CNAME and .nojekyll are kept)')
    // Asked for often enough to be answered: watching is dev mode's.
    .addOption(new Option('--watch').hideHelp());
  withLimitOptions(command).action(runBuildCommand);
}

async function runBuildCommand(options: BuildOptions & LimitOptions, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  if (options.watch) {
    reportFailure(catalogueError('BuildWatchUnknown', []), Boolean(global.verbose), 'Build failed');
    return;
  }
  const colors = paint(useColor());
  const interrupts = cleanUpOnSignal();
  try {
    // Loaded on use: `--help` and `preview` should not wait for the Markdown and bundling stack.
    const { build } = await import('../pipeline/build.ts');
    const progress = progressLine(process.stdout);
    const result = await build({
      root: global.root,
      outDir: options.out,
      baseUrl: options.baseUrl,
      drafts: options.drafts,
      future: options.future,
      emptyOutDir: options.emptyOutDir,
      limits: limitsOf(options),
      interrupts,
      onProgress: (done, total) => progress.update(done, total),
      warn: (message) => {
        progress.clear();
        process.stderr.write(`${colors.yellow('warning')} ${message}\n`);
      },
    }).finally(() => progress.clear());
    printBuildResult(result, options.out, colors);
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Build failed');
  }
  exitSoonAfter(interrupts);
}

/** How long a finished build may take to exit on its own before the watchdog ends it. */
const EXIT_DEADLINE_MS = 1000;

const RESOURCE_NAMES: Record<string, string> = { ProcessWrap: 'child process', PipeWrap: 'pipe', TCPWrap: 'socket', TCPSocketWrap: 'socket', Timeout: 'timer', FSReqCallback: 'file operation', FSReqPromise: 'file operation', Immediate: 'immediate' };

/** What still holds the event loop, as `2 child processes, 4 pipes`. */
function stillAlive(): string {
  const counts = new Map<string, number>();
  for (const resource of process.getActiveResourcesInfo()) {
    if (resource === 'TTYWrap') continue;
    const name = RESOURCE_NAMES[resource] ?? resource;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${count} ${name}${count > 1 ? (name.endsWith('s') ? 'es' : 's') : ''}`).join(', ');
}

/**
 * A build that has said its last word exits: nothing it started may keep the process alive. If
 * something still does a second later (a bug), this says what, ends what the build registered
 * (its helpers) and exits with the build's code, so CI never waits for its own time-out.
 */
function exitSoonAfter(interrupts: ReturnType<typeof createInterrupts>): void {
  setTimeout(() => {
    process.stderr.write(`warning: the build ended but ${stillAlive() || 'something'} still held the process ${EXIT_DEADLINE_MS / 1000} s later; exiting all the same. This is a bug in ssg: please report it with this line.\n`);
    interrupts.runAll();
    process.exit(process.exitCode ?? 0);
  }, EXIT_DEADLINE_MS).unref();
}

type BuildResult = Awaited<ReturnType<typeof import('../pipeline/build.ts').build>>;

function printBuildResult(result: BuildResult, outDir: string, colors: ReturnType<typeof paint>): void {
  process.stdout.write(`${formatSummary(summaryRows(result.pages), colors)}\n`);
  process.stdout.write(`${formatTimings(result.timings, colors)}\n`);
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const markdown = result.markdown.converted > 0 || result.markdown.cached > 0
    ? ` · Markdown: ${result.markdown.converted} converted, ${result.markdown.cached} from cache`
    : '';
  process.stdout.write(
    `${colors.green('Built')} ${result.pages.length} pages (${result.articles} articles) into ${outDir} in ${formatMs(result.durationMs)}${markdown}${result.unchanged ? ' · output unchanged, nothing written' : ''} · peak memory ${peakMb} MB\n`,
  );
}

interface DevOptions {
  port?: number;
  host?: string;
  baseUrl?: string;
  drafts?: boolean;
  future?: boolean;
}

function addDevCommand(program: Command): void {
  const command = program
    .command('dev')
    .description('build, serve (on 127.0.0.1 unless --host) and rebuild what changes on every save; open pages reload')
    .option('--port <port>', 'port to listen on (default: 4321, or the next free one)', parsePort)
    .option('--host <address>', 'address to listen on (default: 127.0.0.1; 0.0.0.0 for other devices on the network)')
    .option('--base-url <url>', 'absolute origin for canonical links (default: baseUrl in content/site.yaml)')
    .option('--drafts', 'include articles marked "draft: true" (kept out of the sitemap and feed, marked noindex)')
    .option('--future', 'include articles dated in the future (held back until their date otherwise)');
  withLimitOptions(command).action(runDevCommand);
}

async function runDevCommand(options: DevOptions & LimitOptions, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  const colors = paint(useColor());
  const time = () => colors.dim(new Date().toTimeString().slice(0, 8));
  try {
    const { dev } = await import('../dev/dev.ts');
    const server = await dev({
      root: global.root,
      port: options.port ?? 4321,
      host: options.host,
      strictPort: options.port !== undefined,
      drafts: options.drafts,
      future: options.future,
      baseUrl: options.baseUrl,
      limits: limitsOf(options),
      log: (line) => process.stdout.write(`${time()} ${line}\n`),
      warn: (message) => process.stderr.write(`${colors.yellow('warning')} ${message}\n`),
      fail: (error) => {
        process.stderr.write(`${time()} ${formatAnyError(error, { verbose: Boolean(global.verbose) })}\n`);
      },
    });
    process.stdout.write(`Dev server at ${server.url}/ (Ctrl-C to stop)\n`);
    stopOnSignal(() => server.close(), Boolean(global.verbose), 'Dev server failed', { drain: false });
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Dev server failed');
  }
}

function addPreviewCommand(program: Command): void {
  program
    .command('preview')
    .description('serve the built site on 127.0.0.1 as a static host would')
    .option('--dir <dir>', 'the built site', 'dist')
    .addOption(new Option('--port <port>', 'port to listen on').default(4173).argParser(parsePort))
    .action(runPreviewCommand);
}

async function runPreviewCommand(options: { dir: string; port: number }, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  try {
    const { preview } = await import('../server/preview.ts');
    const running = await preview({ dir: path.resolve(global.root, options.dir), port: options.port });
    process.stdout.write(`Serving ${options.dir} at ${running.url}/ (Ctrl-C to stop)\n`);
    stopOnSignal(() => running.close(), Boolean(global.verbose), 'Preview failed', { drain: false });
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Preview failed');
  }
}

function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('production server: the built site and its API routes (site/api/), configured by environment variables')
    .option('--dir <dir>', 'the built site (default: SITE_DIR or dist)')
    .option('--port <port>', 'port to listen on (default: PORT or 8080)', parsePort)
    .action(runServeCommand);
}

async function runServeCommand(options: { dir?: string; port?: number }, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  try {
    const [{ readServeConfig }, { serve }] = await Promise.all([import('../server/serve-config.ts'), needingSqlite(() => import('../server/serve.ts'))]);
    const config = readServeConfig(process.env, path.resolve(global.root), options);
    const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
    const running = await serve(config, log);
    const mail = config.smtp ? `mail via ${config.smtp.host}:${config.smtp.port}` : 'no SMTP_HOST: messages wait in the inbox';
    log(`Serving ${config.siteDir} at ${running.url}/ · inbox ${config.dataDir} · ${mail}`);
    stopOnSignal(() => running.close(), Boolean(global.verbose), 'Serve failed', { drain: true, announce: (signal) => log(`${signal}: finishing requests in flight, then stopping (a second ${signal} stops at once)`) });
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Serve failed');
  }
}

/**
 * Loads a module that uses better-sqlite3, an optional peer dependency of the package: only `serve`
 * and `inbox` need it, and a site that uses them installs it.
 */
async function needingSqlite<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /better-sqlite3/.test((error as Error).message);
    throw missing ? catalogueError('SqliteMissing', [], {}, { cause: error }) : error;
  }
}

function addInboxCommands(program: Command): void {
  const inbox = program.command('inbox').description('read the messages the site forms stored (DATA_DIR, default ./data)');
  addInboxListCommand(inbox);
  addInboxExportCommand(inbox);
}

// Read-only and without creating anything: the inbox may belong to a running server. Written
// one message at a time, waiting for the pipe: an inbox may be larger than the process's memory.
async function eachMessage(command: Command, options: { undelivered?: boolean }, print: (message: StoredMessage, index: number) => string): Promise<number> {
  const global = command.optsWithGlobals<GlobalOptions & { dataDir?: string }>();
  const { iterateInbox } = await needingSqlite(() => import('../server/inbox-sqlite.ts'));
  let count = 0;
  for (const message of iterateInbox(path.resolve(global.root, global.dataDir ?? process.env.DATA_DIR ?? 'data'), options)) {
    if (!process.stdout.write(print(message, count++))) await once(process.stdout, 'drain');
  }
  return count;
}

function addInboxListCommand(inbox: Command): void {
  inbox
    .command('list')
    .description('list stored messages, newest last')
    .option('--data-dir <dir>', 'where the inbox is (default: DATA_DIR or data)')
    .option('--undelivered', 'only messages not yet delivered by mail')
    .action(async (options: { undelivered?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      try {
        const { formatInboxLine } = await import('../server/inbox-listing.ts');
        const count = await eachMessage(command, options, (message) => `${formatInboxLine(message)}\n`);
        if (count === 0) process.stdout.write('No messages.\n');
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Inbox failed');
      }
    });
}

function addInboxExportCommand(inbox: Command): void {
  inbox
    .command('export')
    .description('print stored messages as JSON')
    .option('--data-dir <dir>', 'where the inbox is (default: DATA_DIR or data)')
    .option('--json', 'JSON, one array (the only format)', true)
    .option('--undelivered', 'only messages not yet delivered by mail')
    .action(async (options: { undelivered?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      try {
        const { escapeControlCharactersKeepingLines } = await import('../server/control-characters.ts');
        // The array JSON.stringify(messages, null, 2) gives, an element at a time. It escapes C0
        // controls only; the others (DEL, C1, bidi, U+2028) become \uXXXX too, which is still the
        // same JSON. Raw line feeds in its output are its own indentation.
        const element = (message: StoredMessage, index: number) =>
          `${index === 0 ? '[\n' : ',\n'}${escapeControlCharactersKeepingLines(JSON.stringify(message, null, 2)).replace(/^/gm, '  ')}`;
        const count = await eachMessage(command, options, element);
        process.stdout.write(count === 0 ? '[]\n' : '\n]\n');
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Inbox failed');
      }
    });
}

export async function main(argv: readonly string[]): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const program = createProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT;
      return;
    }
    reportFailure(error, argv.includes('--verbose'), 'Failed');
  }
}
