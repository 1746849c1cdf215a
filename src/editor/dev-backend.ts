// The editor's local backend in dev: Decap's own `decap-server`, in its file-system mode, on
// 127.0.0.1 and a free port, started with the first request for the editor's configuration and
// stopped with dev. What it writes into content/ is a save like any other: dev rebuilds it, and
// the build's checks apply.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { EDITOR_PATH } from './editor-config.ts';
import { resolvePackage } from './editor-files.ts';
import type { FeatureDevSession, FeatureDevSite } from '../features/contract.ts';

const HOST = '127.0.0.1';
const READY_MS = 15_000;

/** A port free on 127.0.0.1 now (the system's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port, or rejects after `READY_MS`. */
async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`decap-server ended (exit code ${child.exitCode}) before it listened`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: HOST, port }, () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`decap-server did not listen on ${HOST}:${port} within ${READY_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface LocalBackend {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** Starts decap-server for the site at `root`, writing its files in place. */
export async function startEditorBackend(root: string, warn: (message: string) => void): Promise<LocalBackend> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolvePackage(root, 'decap-server/dist/index.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      BIND_HOST: HOST,
      MODE: 'fs',
      GIT_REPO_DIRECTORY: root,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report = (chunk: Buffer) => warn(`The editor's local backend (decap-server): ${chunk.toString().trim()}`);
  child.stdout!.on('data', report);
  child.stderr!.on('data', report);
  try {
    await waitForPort(port, child);
  } catch (error) {
    child.kill();
    throw error;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    origin: `http://${HOST}:${port}`,
    async close() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

/** Whether a site path is the editor's. */
const isEditorPath = (sitePath: string) => sitePath === EDITOR_PATH || sitePath.startsWith(`${EDITOR_PATH}/`);

/** The configuration the build wrote, with the local backend in place of the hosted one; undefined without an editor. */
async function devEditorConfig(outDir: string, backend: () => Promise<LocalBackend>): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(outDir, EDITOR_PATH.slice(1), 'config.json'), 'utf8');
  } catch {
    return undefined;
  }
  const { origin } = await backend();
  const config = JSON.parse(text) as Record<string, unknown>;
  return `${JSON.stringify({ ...config, local_backend: { url: `${origin}/api/v1`, allowed_hosts: [HOST, 'localhost'] } }, null, 2)}\n`;
}

/** The editor's headers as the build wrote them, its policy also allowing the local backend. */
function devEditorHeaders(headers: Record<string, string>, origin: string | undefined): Record<string, string> {
  if (!origin) return headers;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy');
  if (!name) return headers;
  const policy = headers[name]!.replace(/(^|;\s*)connect-src([^;]*)/i, `$1connect-src$2 ${origin}`);
  return { ...headers, [name]: policy };
}

/**
 * The editor in dev: its configuration and headers as served, and its backend, started once the
 * first build wrote an editor (a site without one starts nothing) and closed with dev.
 */
export function createDevEditor({ root, outDir, warn, headersFor }: FeatureDevSite): FeatureDevSession {
  let starting: Promise<LocalBackend> | undefined;
  let origin: string | undefined;
  const backend = () =>
    (starting ??= startEditorBackend(root, warn).then((started) => ((origin = started.origin), started)));
  const didNotStart = (error: unknown) =>
    `The editor's local backend did not start: ${error instanceof Error ? error.message : String(error)}`;
  return {
    owns: isEditorPath,
    /** Starts the backend when the build wrote an editor; its failure is a warning, dev goes on. */
    async start(): Promise<void> {
      if (!existsSync(path.join(outDir, EDITOR_PATH.slice(1), 'config.json'))) return;
      try {
        await backend();
      } catch (error) {
        warn(didNotStart(error));
      }
    },
    /** Answers the configuration's request (503 when the backend does not start); false for any other path. */
    async serve(sitePath, response) {
      if (sitePath !== `${EDITOR_PATH}/config.json`) return false;
      let config: string | undefined;
      try {
        config = await devEditorConfig(outDir, backend);
      } catch (error) {
        warn(didNotStart(error));
        response
          .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('The editor backend did not start.');
        return true;
      }
      if (config === undefined) return false;
      response
        .writeHead(200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-store',
          ...devEditorHeaders(headersFor(sitePath), origin),
        })
        .end(config);
      return true;
    },
    /** The headers of an editor path (none for the site's other paths, as before). */
    headers: (sitePath) => (isEditorPath(sitePath) ? devEditorHeaders(headersFor(sitePath), origin) : {}),
    async close() {
      const started = await starting?.catch(() => undefined);
      await started?.close();
    },
  };
}
