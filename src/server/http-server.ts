import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isValidHost } from './request-target.ts';

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface HttpServerOptions {
  /** Where failures of a request are reported; a request never stops the server. */
  log: (line: string) => void;
  /** A client must send its headers within this time (slow clients holding sockets). */
  headersTimeoutMs?: number;
  /** ... and its whole request, body included, within this one. */
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** A socket with no traffic either way for this long is closed (a reader that stalled a download); 0 for none. */
  idleTimeoutMs?: number;
  maxConnections?: number;
}

/** The soft limit of open files of this process, where Linux tells it. */
function openFileLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Half the file descriptors for sockets leaves the other half for the files they download. */
function defaultMaxConnections(limit = openFileLimit()): number {
  return Math.max(32, Math.min(10_000, Math.floor((limit ?? 1024) / 2)));
}

export function sendPlain(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(`${text}\n`);
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

/** A request line for a log, short and without control characters. */
function describeRequest(request: IncomingMessage): string {
  const url = String(request.url)
    .slice(0, 200)
    .replace(/[\u0000-\u001f\u007f]/g, '?');
  return `${request.method} ${url}`;
}

async function answer(
  listener: RequestListener,
  request: IncomingMessage,
  response: ServerResponse,
  log: (line: string) => void,
) {
  try {
    if (!isValidHost(request.headers.host)) {
      sendPlain(response, 400, 'Bad Request: malformed Host header');
      return;
    }
    await listener(request, response);
  } catch (error) {
    log(`error: ${describeRequest(request)}: ${(error as Error)?.stack ?? String(error)}`);
    if (!response.headersSent) sendPlain(response, 500, 'Internal Server Error');
    else response.destroy();
  }
}

const CONNECT_REFUSED =
  'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, OPTIONS\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

/**
 * An HTTP server that no request can stop or exhaust: a listener that throws, at once or later,
 * answers 500; a malformed Host answers 400; CONNECT answers 405 (this is no proxy); slow and idle
 * clients are cut off; connections are capped below the open-file limit; accept failures are logged.
 * Shared by `serve`, `preview` and dev mode.
 */
export function createHttpServer(listener: RequestListener, options: HttpServerOptions): Server {
  // Node checks the header and request time-outs on this interval (30 s by default), which would
  // let a slow client hold its socket up to 30 s past the time-out.
  const server = createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
    void answer(listener, request, response, options.log);
  });
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  // Without a 'timeout' listener Node destroys the idle socket, which ends the download streaming to it.
  server.setTimeout(options.idleTimeoutMs ?? 60_000);
  server.maxConnections = options.maxConnections ?? defaultMaxConnections();
  server.on('connect', (_request, socket) => {
    socket.on('error', () => {});
    socket.end(CONNECT_REFUSED);
  });
  // After listening only: a failure to listen is the caller's to report (or to try the next port).
  server.once('listening', () => server.on('error', (error) => options.log(`server error: ${error.message}`)));
  return server;
}
