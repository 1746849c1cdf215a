import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { loadApiRoutes, type LoadedApiRoute } from './api-loader.ts';
import type { ApiHandler } from './api-route.ts';
import { startDeliveryLoop } from '../inbox/delivery.ts';
import { claimDataDir, type DataDirClaim } from '../inbox/data-dir.ts';
import { openInboxThread, type AsyncInbox } from '../inbox/inbox-sqlite.ts';
import { createSmtpSender } from '../inbox/mail.ts';
import type { Inbox } from '../inbox/message.ts';
import { siteCodeError } from '../errors/site-code-error.ts';
import { resolveClientAddress, type ProxyTrust } from './client-address.ts';
import { catalogueError } from '../errors/errors.ts';
import { listen } from './preview.ts';
import type { ServeConfig } from './serve-config.ts';
import { headersFor, loadHeadersFile } from './headers-file.ts';
import { createHttpServer, sendPlain } from './http-server.ts';
import { isValidHost, parseRequestTarget } from './request-target.ts';
import { createStaticHandler } from './static-server.ts';

const HASHED_ASSET = /^\/assets\/.+-[A-Z0-9]{8}\.[a-z0-9]+$/;

/** Long caching for files whose name changes with their content, short for everything else. */
export function cacheControlFor(urlPath: string, file: string): string {
  if (HASHED_ASSET.test(urlPath)) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'public, max-age=60, must-revalidate';
  return 'public, max-age=3600';
}

/** The visitor's address: the socket's, or what the trusted proxies in front report (see client-address.ts). */
export function clientAddressOf(request: IncomingMessage, trustProxy: ProxyTrust): string {
  return resolveClientAddress(request, trustProxy);
}

/**
 * Node's request as a web-standard Request, or undefined when it cannot be one (a Host or target
 * no URL can be built from; the server refuses those before, this is the last guard).
 */
export function toWebRequest(request: IncomingMessage): Request | undefined {
  const target = parseRequestTarget(request.url);
  if (!target || !isValidHost(request.headers.host)) return undefined;
  try {
    const url = new URL(`http://${request.headers.host || 'localhost'}${target.pathname}${target.search}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return new Request(url, {
      method: request.method,
      headers,
      body: hasBody ? (Readable.toWeb(request) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
  } catch {
    return undefined;
  }
}

/** Runs a web handler (a Request in, a Response out) on Node's request and writes its answer back. */
export async function runWebHandler(
  handler: (request: Request) => Promise<Response>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const webRequest = toWebRequest(request);
  if (!webRequest) {
    sendPlain(response, 400, 'Bad Request');
    return;
  }
  const webResponse = await handler(webRequest);
  const body = Buffer.from(await webResponse.arrayBuffer());
  // The client may have gone while the handler worked: nothing is left to answer.
  if (response.destroyed) return;
  response.writeHead(webResponse.status, Object.fromEntries(webResponse.headers.entries()));
  response.end(request.method === 'HEAD' ? undefined : body);
}

export interface RunningServe {
  url: string;
  /** Stops taking connections, lets requests in flight finish, then closes the inbox. */
  close(): Promise<void>;
}

/** The inbox on its worker thread; a folder it cannot write to is the operator's to fix, not a bug. */
async function openInbox(dataDir: string, claim: DataDirClaim): Promise<AsyncInbox> {
  try {
    return await openInboxThread(dataDir);
  } catch (error) {
    claim.release();
    const code = (error as { code?: string }).code ?? (error as Error).message;
    const damaged = code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
    throw damaged
      ? catalogueError('InboxDamaged', [code], { file: dataDir }, { cause: error })
      : catalogueError('DataDirUnwritable', ['inbox', code], { file: dataDir }, { cause: error });
  }
}

/** The inbox the routes write to, opened after they are made (so a bad setting fails first). */
interface DeferredInbox extends Inbox {
  open(target: AsyncInbox, onAdded: () => void): void;
}

function deferredInbox(): DeferredInbox {
  let target: AsyncInbox | undefined;
  let added = () => undefined as void;
  return {
    open(inbox, onAdded) {
      target = inbox;
      added = onAdded;
    },
    async add(message) {
      if (!target) throw new Error('the inbox is not open yet');
      const id = await target.add(message);
      added();
      return id;
    },
  };
}

/** Each route's handler, by URL path; a route whose set-up throws is reported at its file and line. */
function createRouteHandlers(routes: LoadedApiRoute[], config: ServeConfig, inbox: Inbox): Map<string, ApiHandler> {
  const handlers = new Map<string, ApiHandler>();
  for (const { path: urlPath, file, route } of routes) {
    const services = {
      settings: config.settings,
      siteOrigin: config.siteOrigin,
      allowedOrigins: config.allowedOrigins,
      rateLimit: config.rateLimit,
      inbox,
    };
    try {
      handlers.set(urlPath, route.create(services));
    } catch (error) {
      throw siteCodeError('ApiRouteThrew', `Setting up ${file}`, error, config.root, { file });
    }
  }
  return handlers;
}

export async function serve(config: ServeConfig, log: (line: string) => void): Promise<RunningServe> {
  if (!existsSync(config.siteDir)) {
    throw catalogueError('SiteDirMissing', [config.siteDir], { file: config.siteDir });
  }
  const routes = await loadApiRoutes(config.root);
  const pending = deferredInbox();
  const handlers = createRouteHandlers(routes, config, pending);
  const claim = claimDataDir(config.dataDir);
  const inbox = await openInbox(config.dataDir, claim);
  const presentation = routes.find((loaded) => loaded.route.form)?.route.form;
  const sender = config.smtp
    ? createSmtpSender({ ...config.smtp, domain: new URL(config.allowedOrigins[0]!).hostname, presentation })
    : undefined;
  const delivery = sender ? startDeliveryLoop({ inbox, sender, ...config.delivery, log }) : undefined;
  pending.open(inbox, () => delivery?.kick());

  const rules = loadHeadersFile(config.siteDir);
  const serveStatic = createStaticHandler(config.siteDir, {
    compress: true,
    headers: (sitePath, file) => ({ ...headersFor(rules, sitePath), 'Cache-Control': cacheControlFor(sitePath, file) }),
  });

  const server = createHttpServer(
    (request, response) => {
      const handler = handlers.get(parseRequestTarget(request.url)?.pathname ?? '');
      return handler
        ? runWebHandler(
            (webRequest) => handler(webRequest, clientAddressOf(request, config.trustProxy)),
            request,
            response,
          )
        : serveStatic(request, response);
    },
    { log },
  );

  let url: string;
  try {
    url = await listen(server, config.port, config.host);
  } catch (error) {
    await delivery?.stop(0);
    sender?.close?.();
    await inbox.close();
    claim.release();
    throw error;
  }
  return {
    url,
    // One deadline for the whole shutdown: requests in flight, then the send under way, each get
    // what is left of SHUTDOWN_TIMEOUT_SECONDS. A send cut off is retried after the next start.
    async close() {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle once their last response is sent: close them then,
      // rather than waiting for their keep-alive time-out.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      closed.finally(() => clearInterval(sweep));
      const timeout = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs).unref(),
      );
      if ((await Promise.race([closed, timeout])) === 'timeout') {
        log('shutdown: requests still open after the time-out; closing them');
        server.closeAllConnections();
        await closed;
      }
      if ((await delivery?.stop(deadline - Date.now())) === 'abandoned') {
        log(
          'shutdown: a mail send was still under way; it is abandoned and the message is sent again after the next start',
        );
      }
      sender?.close?.();
      await inbox.close(Math.max(100, deadline - Date.now()));
      claim.release();
    },
  };
}
