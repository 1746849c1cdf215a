import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { ArticleLimits } from '../content/limits.ts';
import * as esbuild from 'esbuild';
import { SsgError, SsgErrorList } from '../errors/errors.ts';
import { createHttpServer } from '../server/http-server.ts';
import { createIncrementalBuild, type IncrementalBuild, type UpdateResult } from '../pipeline/incremental.ts';
import { listen } from '../server/preview.ts';
import { generatorRoot } from '../project.ts';
import { parseRequestTarget } from '../server/request-target.ts';
import { createStaticHandler } from '../server/static-server.ts';
import { devSessions } from '../pipeline/features.ts';
import { headersFor, loadHeadersFile } from '../server/headers-file.ts';
import { watchSourceFolders } from './source-watcher.ts';
import { createWatchQueue, type WatchQueue } from './watch-queue.ts';

const DEV_OUT_DIR = path.join('.cache', 'ssg', 'dev');
const EVENTS_PATH = '/__ssg/events';
const CLIENT_PATH = '/__ssg/client.js';
/** Long enough to fold an editor's burst of writes into one rebuild, short enough not to notice. */
const DEBOUNCE_MS = 5;

export interface DevOptions {
  root: string;
  port: number;
  /** The address to listen on: 127.0.0.1 unless asked (`0.0.0.0` for a phone on the same network). */
  host?: string;
  /** With an explicit port, a busy one is an error; by default the next free one is taken. */
  strictPort: boolean;
  drafts?: boolean;
  future?: boolean;
  baseUrl?: string;
  /** What one article may cost (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
  log: (line: string) => void;
  warn: (message: string) => void;
  /** Reports a failed build in the terminal, as `build` does. */
  fail: (error: unknown) => void;
  /** Hears of every rebuild after the first: the files it took in, and its error if it failed. */
  onRebuild?: (rebuild: { paths: string[]; error?: unknown }) => void;
}

export interface DevServer {
  url: string;
  /** The folder dev serves from. */
  outDir: string;
  /** Resolves when no change is waiting or being rebuilt. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What the overlay shows for an error: code, title, where, message and hint of each problem. */
export function describeProblems(
  error: unknown,
): Array<{ code?: string; title?: string; where?: string; message: string; hint?: string }> {
  const errors = error instanceof SsgErrorList ? error.errors : [error];
  return errors.map((item) =>
    item instanceof SsgError
      ? { code: item.code, title: item.title, where: item.where, message: item.message, hint: item.hint }
      : { message: item instanceof Error ? (item.stack ?? item.message) : String(item) },
  );
}

/** `/about` for about.html (or about/index.html), `/news/404` for news/404.html: the page a file is. */
function pageOf(outDir: string, file: string): string {
  const relative = path.relative(outDir, file).split(path.sep).join('/');
  return `/${relative.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`.replace(/(.)\/$/, '$1');
}

function describeChange(paths: Set<string>, root: string): string {
  const names = [...paths].map((file) => path.relative(root, path.resolve(root, file)));
  return names.length === 1 ? `${names[0]} changed` : `${names.length} files changed`;
}

/** The script each served page loads: it listens for reload, style and error events. */
async function bundleDevClient(): Promise<Uint8Array> {
  const client = await esbuild.build({
    entryPoints: [path.join(generatorRoot, 'src', 'runtime', 'dev-client.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    logLevel: 'silent',
  });
  return client.outputFiles[0]!.contents;
}

/** The event stream open pages listen on, and the problems of the last failed build. */
function createReloadEvents() {
  let lastProblems: ReturnType<typeof describeProblems> | undefined;
  /** How many times open pages were told to reload or swap styles: a page is served with it. */
  let generation = 0;
  const listeners = new Set<ServerResponse>();
  const broadcast = (event: string, data: unknown) => {
    if (event !== 'build-error') generation += 1;
    const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const response of listeners) response.write(message);
  };
  return {
    generation: () => generation,
    subscribe(request: IncomingMessage, response: ServerResponse): void {
      response.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      // A page served before a rebuild whose stream opened after it missed that rebuild's event:
      // told the generation now, it reloads if it was served with another.
      response.write(`: connected\n\nevent: hello\ndata: ${JSON.stringify({ generation })}\n\n`);
      listeners.add(response);
      if (lastProblems) response.write(`event: build-error\ndata: ${JSON.stringify(lastProblems)}\n\n`);
      request.on('close', () => listeners.delete(response));
    },
    announce(result: UpdateResult): void {
      const recovered = lastProblems !== undefined;
      lastProblems = undefined;
      if (result.styleSwap) broadcast('style', result.styleSwap);
      // Nothing written and no error shown: the pages are as they are.
      else if (!recovered && !result.reloadAll && result.pages.length === 0 && result.removed.length === 0) return;
      // After an error every open page shows it: each reloads.
      else
        broadcast('reload', { all: recovered || result.reloadAll || result.removed.length > 0, pages: result.pages });
    },
    /** Remembers the problems for pages that connect later; `tell` also sends them to open ones. */
    failed(error: unknown, tell: boolean): void {
      lastProblems = describeProblems(error);
      if (tell) broadcast('build-error', lastProblems);
    },
    endAll(): void {
      for (const response of listeners) response.end();
    },
  };
}

type ReloadEvents = ReturnType<typeof createReloadEvents>;

/** What the features serve themselves in dev (the editor's configuration with its local backend). */
type FeatureSessions = ReturnType<typeof devSessions>;

function createDevHttpServer(
  build: IncrementalBuild,
  events: ReloadEvents,
  clientCode: Uint8Array,
  features: FeatureSessions,
  warn: (line: string) => void,
): Server {
  const serveStatic = createStaticHandler(build.outDir, {
    headers: (sitePath) => ({ 'Cache-Control': 'no-store', ...features.headers(sitePath) }),
    transformHtml: (html, file) => {
      // A feature's pages are left as they are (the editor: a reload would lose what is being
      // written, and the overlay of a failed build would cover the form that fixes it).
      if (features.owns(pageOf(build.outDir, file))) return html;
      const tag = `<script type="module" src="${CLIENT_PATH}" data-ssg-dev data-page="${pageOf(build.outDir, file)}" data-generation="${events.generation()}"></script>`;
      return html.includes('</body>') ? html.replace('</body>', `${tag}\n</body>`) : html + tag;
    },
  });

  return createHttpServer(
    (request, response) => {
      const pathname = parseRequestTarget(request.url)?.pathname;
      if (pathname === EVENTS_PATH) {
        events.subscribe(request, response);
        return;
      }
      if (pathname === CLIENT_PATH) {
        response
          .writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' })
          .end(clientCode);
        return;
      }
      if (!build.hasBuilt()) {
        // No good build yet: a page that shows the error and reloads once the build succeeds.
        response
          .writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
          .end(
            `<!doctype html><title>Build failed</title><body><script type="module" src="${CLIENT_PATH}" data-ssg-dev data-page="*"></script></body>`,
          );
        return;
      }
      return serveFeatureOrStatic(features, serveStatic, request, response, warn, build);
    },
    { log: (line) => warn(line), idleTimeoutMs: 0 /* the reload event stream is quiet between saves */ },
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const saidOnce = new WeakSet<object>();

/**
 * What a feature serves itself (the editor's configuration, with dev's local backend), else the
 * built file; a feature's files (the search index) made first when asked for.
 */
async function serveFeatureOrStatic(
  features: FeatureSessions,
  serveStatic: ReturnType<typeof createStaticHandler>,
  request: IncomingMessage,
  response: ServerResponse,
  warn: (line: string) => void,
  build: IncrementalBuild,
): Promise<void> {
  const pathname = parseRequestTarget(request.url)?.pathname ?? '';
  if (await features.serve(pathname, response)) return;
  await build.askedFor(pathname).catch((error: unknown) => {
    // The requests that waited for one index hear of its failure together: said once.
    if (error instanceof Object) {
      if (saidOnce.has(error)) return;
      saidOnce.add(error);
    }
    warn(messageOf(error));
  });
  return serveStatic(request, response);
}

/** After a good rebuild was announced: the cache drops what the site no longer uses (only saves space). */
function pruneAfterReload(build: IncrementalBuild): void {
  try {
    build.pruneCaches();
  } catch {
    // Tried again after the next rebuild.
  }
}

/** Rebuilds what changed and tells open pages. */
function createRebuilder(build: IncrementalBuild, events: ReloadEvents, options: DevOptions, root: string) {
  /** Set as dev closes: a rebuild its closing cut short (its helper ended) is no failure to show. */
  const state = { closing: false };
  const runUpdate = async (paths: Set<string>): Promise<boolean> => {
    try {
      const result = await build.update(paths);
      events.announce(result);
      const count = result.pages.length;
      options.log(
        `${describeChange(paths, root)} · ${count} page${count === 1 ? '' : 's'} written${
          result.removed.length ? `, ${result.removed.length} removed` : ''
        }${result.styleSwap ? ' · styles swapped' : ''} · ${Math.round(result.durationMs)} ms`,
      );
      options.onRebuild?.({ paths: [...paths] });
      pruneAfterReload(build);
      return true;
    } catch (error) {
      if (state.closing) return false;
      events.failed(error, true);
      options.fail(error);
      options.onRebuild?.({ paths: [...paths], error });
      return false;
    }
  };
  return { runUpdate, closing: () => void (state.closing = true) };
}

/** Listens on the port asked for or, unless it must be that one, one of the next 20. */
async function listenNearPort(server: Server, build: IncrementalBuild, options: DevOptions): Promise<string> {
  let port = options.port;
  for (;;) {
    try {
      return await listen(server, port, options.host ?? '127.0.0.1');
    } catch (error) {
      const busy = error instanceof SsgError && error.code === 'PortInUse';
      if (!busy || options.strictPort || port >= options.port + 20) {
        await build.dispose();
        throw error;
      }
      port += 1;
    }
  }
}

/**
 * Watches the site's sources and queues each changed file; resolves once the watcher is ready.
 * Its problems are warnings: dev goes on serving what it built.
 */
async function watchSources(
  root: string,
  queue: WatchQueue,
  warn: (message: string) => void,
): Promise<{ close(): Promise<void> }> {
  const watcher = await watchSourceFolders(root, {
    change: (file) => queue.add(file),
    error: (error) => warn(`The file watcher: ${messageOf(error)}`),
  });
  return { close: () => watcher.close() };
}

export async function dev(options: DevOptions): Promise<DevServer> {
  const root = path.resolve(options.root);
  const build = await createIncrementalBuild({
    root,
    outDir: DEV_OUT_DIR,
    drafts: options.drafts,
    future: options.future,
    baseUrl: options.baseUrl,
    warn: options.warn,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const clientCode = await bundleDevClient();
  const events = createReloadEvents();
  const features = devSessions(
    {
      root,
      outDir: build.outDir,
      warn: options.warn,
      headersFor: (sitePath) => headersFor(loadHeadersFile(build.outDir), sitePath),
    },
    build.featureOn,
    options.warn,
  );
  const server = createDevHttpServer(build, events, clientCode, features, options.warn);
  const { runUpdate, closing } = createRebuilder(build, events, options, root);

  // Watching starts before the first build reads a file, and the server answers only after both:
  // a save made while the first build runs, or as soon as the first page is served, is queued
  // and rebuilt once that build is done, never missed.
  let firstBuildDone = () => {};
  const firstBuild = new Promise<void>((resolve) => (firstBuildDone = resolve));
  const queue = createWatchQueue(async (paths) => (await firstBuild, runUpdate(paths)), { debounceMs: DEBOUNCE_MS });
  let watcher: Awaited<ReturnType<typeof watchSources>>;
  try {
    watcher = await watchSources(root, queue, options.warn);
  } catch (error) {
    queue.close();
    await build.dispose();
    throw error;
  }

  try {
    const result = await build.initial();
    const pages = result.pages.length;
    options.log(`Built ${pages} page${pages === 1 ? '' : 's'} in ${Math.round(result.durationMs)} ms`);
    pruneAfterReload(build);
    void build.warmEdits();
    await features.start();
  } catch (error) {
    events.failed(error, false);
    options.fail(error);
  }
  firstBuildDone();

  let url: string;
  try {
    url = await listenNearPort(server, build, options);
  } catch (error) {
    queue.close();
    await watcher.close();
    await build.dispose();
    throw error;
  }

  return {
    url,
    outDir: build.outDir,
    idle: () => queue.idle(),
    async close() {
      closing();
      queue.close();
      await watcher.close();
      events.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await features.close();
      await build.dispose();
    },
  };
}
