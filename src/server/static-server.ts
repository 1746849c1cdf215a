// The static files of a built site, for `ssg serve`, `preview` and dev. Not sirv: each piece
// below is one sirv gets wrong under the attack suites on `ssg serve` (see README.md here).
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentTypeOf, isCompressible } from './content-type.ts';
import { matchesEntityTag, preferredEncoding } from './content-negotiation.ts';
import { sendEncoded, sendIdentity, type FileExchange, type ResponseHeaders } from './file-response.ts';
import { sendPlain } from './http-server.ts';
import { redirectOf } from './redirect-rules.ts';
import { parseRequestTarget, sitePathOf } from './request-target.ts';
import { findAcrossSwaps, findStaticFile, type Found } from './static-lookup.ts';

type HeadersFor = (sitePath: string, file: string) => Record<string, string>;

export interface StaticHandlerOptions {
  /** Extra headers for a site path (decoded and normalised: `/about/`, `/assets/app-1A2B3C4D.js`). */
  headers?: HeadersFor;
  /** Send text as brotli or gzip when the client accepts it: a `.br`/`.gz` file beside it, else compressed as it is sent. */
  compress?: boolean;
  /** Rewrites HTML as it is served (dev mode injects its client); the file stays as built. */
  transformHtml?: (html: string, file: string) => string;
}

interface Exchange extends FileExchange {
  sitePath: string;
  options: StaticHandlerOptions;
}

/** The site path of a request, or undefined after answering 400 for a target no file can have. */
function sitePathOrBadRequest(request: IncomingMessage, response: ServerResponse): string | undefined {
  const target = parseRequestTarget(request.url);
  const sitePath = target && sitePathOf(target.pathname);
  if (sitePath === undefined) sendPlain(response, 400, 'Bad Request: the path is not a valid URL path');
  return sitePath;
}

/** A request handler serving a built site from `root`; it closes every file it opens, whatever the client does. */
export function createStaticHandler(root: string, options: StaticHandlerOptions = {}) {
  const absoluteRoot = path.resolve(root);
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { Allow: 'GET, HEAD, OPTIONS' }).end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendPlain(response, 405, 'Method Not Allowed', { Allow: 'GET, HEAD, OPTIONS' });
      return;
    }
    const sitePath = sitePathOrBadRequest(request, response);
    if (sitePath === undefined) return;
    const moved = await redirectOf(absoluteRoot, sitePath, parseRequestTarget(request.url)?.search ?? '');
    if (moved) {
      response
        .writeHead(moved.status, { Location: moved.location, 'Content-Length': 0, ...options.headers?.(sitePath, '') })
        .end();
      return;
    }
    const found = await findAcrossSwaps(absoluteRoot, sitePath);
    if (
      found !== 'no-site' &&
      found?.status !== 200 &&
      (await redirectedToPage(request, response, absoluteRoot, sitePath))
    ) {
      if (found) await found.opened.handle.close().catch(() => {});
      return;
    }
    if (found === 'no-site') {
      sendPlain(response, 503, 'Service Unavailable: the site folder is missing', { 'Retry-After': '1' });
      return;
    }
    if (!found) {
      sendPlain(response, 404, 'Not Found');
      return;
    }
    try {
      await sendFound({ request, response, sitePath, options }, found);
    } finally {
      await found.opened.handle.close().catch(() => {});
    }
  };
}

/**
 * A page's address with a slash after it (`/news/hello/`, as Hugo writes links) where the page is
 * `/news/hello`: one permanent redirect to the page, its query kept, as Cloudflare Pages, Netlify
 * and the nginx guide's block answer. Only for a page the site has (an `.html` file): a made-up
 * path is never echoed into a Location header.
 */
async function redirectedToPage(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
  sitePath: string,
): Promise<boolean> {
  if (!/[^/]\/+$/.test(sitePath)) return false;
  const page = sitePath.replace(/\/+$/, '');
  const found = await findStaticFile(root, page);
  if (!found || found === 'no-site') return false;
  await found.opened.handle.close().catch(() => {});
  // The page's own file (`news/hello.html` for `/news/hello/`), as the hosts and the nginx recipe have it.
  if (found.status !== 200 || path.basename(found.opened.file) !== `${path.posix.basename(page)}.html`) return false;
  // Bytes a header may not carry (a client may send them in the query) are percent-encoded.
  const query = (parseRequestTarget(request.url)?.search ?? '').replace(/[^\x21-\x7e]/g, (char) =>
    encodeURIComponent(char),
  );
  // Each segment encoded whole: a page named `a#b` is not sent to `/a` with a fragment.
  const location = page
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  response.writeHead(301, { Location: `${location}${query}`, 'Content-Length': 0 }).end();
  return true;
}

async function sendFound(exchange: Exchange, { opened, status, siteRoot }: Found): Promise<void> {
  const { request, response, options } = exchange;
  const extraHeaders = options.headers?.(exchange.sitePath, opened.file);
  const type = contentTypeOf(opened.file);
  if (options.transformHtml && opened.file.endsWith('.html')) {
    const html = Buffer.from(options.transformHtml(await opened.handle.readFile('utf8'), opened.file));
    response.writeHead(status, { 'Content-Type': type, 'Content-Length': html.length, ...extraHeaders });
    response.end(request.method === 'HEAD' ? undefined : html);
    return;
  }
  const etag = `W/"${opened.stats.size.toString(36)}-${Math.floor(opened.stats.mtimeMs).toString(36)}"`;
  const headers: ResponseHeaders = { 'Content-Type': type, ETag: etag, ...extraHeaders };
  if (status === 200 && matchesEntityTag(request.headers['if-none-match'], etag)) {
    response.writeHead(304, headers).end();
    return;
  }
  if (options.compress && isCompressible(type)) {
    headers.Vary = 'Accept-Encoding';
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding && (await sendEncoded(exchange, { status, headers, siteRoot }, opened, encoding))) return;
  }
  await sendIdentity(exchange, status, headers, opened);
}
