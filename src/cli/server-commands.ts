// The commands that serve: `ssg dev`, `ssg preview` and `ssg serve`, each until a signal stops it.
import { Option, type Command } from 'commander';
import path from 'node:path';
import { catalogueError, formatAnyError } from '../errors/errors.ts';
import { reportFailure, stopOnSignal } from './exit.ts';
import { limitsOf, parsePort, withLimitOptions, type GlobalOptions, type LimitOptions } from './options.ts';
import { paint, useColor } from './terminal.ts';

interface DevOptions {
  port?: number;
  host?: string;
  baseUrl?: string;
  drafts?: boolean;
  future?: boolean;
}

export function addDevCommand(program: Command): void {
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

export function addPreviewCommand(program: Command): void {
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

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'production server: the built site and its API routes (site/api/), configured by environment variables',
    )
    .option('--dir <dir>', 'the built site (default: SITE_DIR or dist)')
    .option('--port <port>', 'port to listen on (default: PORT or 8080)', parsePort)
    .action(runServeCommand);
}

async function runServeCommand(options: { dir?: string; port?: number }, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  try {
    const [{ readServeConfig }, { serve }] = await Promise.all([
      import('../server/serve-config.ts'),
      needingSqlite(() => import('../server/serve.ts')),
    ]);
    const config = readServeConfig(process.env, path.resolve(global.root), options);
    const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
    const running = await serve(config, log);
    const mail = config.smtp
      ? `mail via ${config.smtp.host}:${config.smtp.port}`
      : 'no SMTP_HOST: messages wait in the inbox';
    log(`Serving ${config.siteDir} at ${running.url}/ · inbox ${config.dataDir} · ${mail}`);
    stopOnSignal(() => running.close(), Boolean(global.verbose), 'Serve failed', {
      drain: true,
      announce: (signal) =>
        log(`${signal}: finishing requests in flight, then stopping (a second ${signal} stops at once)`),
    });
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Serve failed');
  }
}

/**
 * Loads a module that uses better-sqlite3, an optional peer dependency of the package: only `serve`
 * and `inbox` need it, and a site that uses them installs it.
 */
export async function needingSqlite<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      /better-sqlite3/.test((error as Error).message);
    throw missing ? catalogueError('SqliteMissing', [], {}, { cause: error }) : error;
  }
}
