import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { sendPlain } from './http-server.ts';
import { parseRequestTarget, sitePathOf } from './request-target.ts';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** A file opened for one response; whoever opens it closes it. */
export interface OpenFile {
  /** The path asked for (a symlink keeps its own name, and so its content type). */
  file: string;
  handle: FileHandle;
  stats: Stats;
}

/** Errors that mean "no such file here" rather than a fault of the disk or the process. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EACCES', 'EPERM', 'EISDIR', 'ENXIO']);

function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException)?.code ?? '');
}

function isInside(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Opens `file` when it is a regular file whose real path is inside `root`: a symlink may not lead
 * out of the site. Holding the handle keeps the content readable while a build swaps the folder.
 */
async function openInside(root: string, file: string): Promise<OpenFile | undefined> {
  let handle: FileHandle | undefined;
  try {
    const real = await realpath(file);
    if (!isInside(root, real)) return undefined;
    // Non-blocking: a FIFO left in the folder must not hang the request (no effect on regular files).
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (stats.isFile()) return { file, handle, stats };
  } catch (error) {
    await handle?.close().catch(() => {});
    if (isMissing(error)) return undefined;
    throw error;
  }
  await handle.close().catch(() => {});
  return undefined;
}

/** Host configuration files are read by the server, never served (in any spelling of their path). */
const HIDDEN = /^_(headers|redirects)(\.|\/|$)/i;
/** How far up the path the nearest 404 page is looked for: a request of 8,000 segments costs no more. */
const NOT_FOUND_SEARCH_DEPTH = 16;

/** The nearest `404.html` up from `folder` (relative to `root`, `/`-separated). */
export async function nearestNotFound(root: string, folder: string): Promise<OpenFile | undefined> {
  let current = folder === '.' ? '' : folder.split('/').slice(0, NOT_FOUND_SEARCH_DEPTH).join('/');
  for (let level = 0; level <= NOT_FOUND_SEARCH_DEPTH; level += 1) {
    const opened = await openInside(root, path.join(root, current, '404.html'));
    if (opened || current === '') return opened;
    const parent = path.posix.dirname(current);
    current = parent === '.' ? '' : parent;
  }
  return undefined;
}

export interface Found {
  opened: OpenFile;
  status: 200 | 404;
  /** The real path of the site folder it was found in (its siblings are looked for there too). */
  siteRoot: string;
}

/**
 * Maps a site path (see `sitePathOf`) to a file the way common static hosts do: `/about` serves
 * `about`, else `about.html`, else `about/index.html`; `/about/` only `about/index.html`; anything
 * missing gets the nearest `404.html` up the path, with status 404. Undefined when there is not even a root 404 page; 'no-site' when the folder
 * itself is missing (a build swapping it in).
 */
export async function findStaticFile(root: string, sitePath: string): Promise<Found | undefined | 'no-site'> {
  let rootReal: string;
  try {
    rootReal = await realpath(root);
  } catch (error) {
    if (isMissing(error)) return 'no-site';
    throw error;
  }
  const relative = sitePath.slice(1);
  // A backslash is a separator on Windows only: refuse it rather than let it mean two things.
  if (!HIDDEN.test(relative) && !relative.includes('\\')) {
    const target = path.join(rootReal, relative);
    // The root itself (`/`, `/.`) has no `.html` sibling inside the site.
    const candidates = sitePath.endsWith('/') || relative === ''
      ? [path.join(target, 'index.html')]
      : [target, `${target}.html`, path.join(target, 'index.html')];
    for (const candidate of candidates) {
      const opened = await openInside(rootReal, candidate);
      if (opened) return { opened, status: 200, siteRoot: rootReal };
    }
  }
  const notFound = await nearestNotFound(rootReal, HIDDEN.test(relative) ? '' : path.posix.dirname(relative));
  return notFound && { opened: notFound, status: 404, siteRoot: rootReal };
}

/** The identity (inode) of the site folder, or undefined while it is missing. */
async function siteIdentity(root: string): Promise<string | undefined> {
  try {
    const stats = await stat(root);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

const SWAP_WAIT_MS = 2000;
const SWAP_POLL_MS = 10;

/**
 * `findStaticFile`, answered as it would be before or after a build swaps the folder in, never
 * from the moment between: a miss while the folder is missing or was replaced is looked up again.
 */
async function findAcrossSwaps(root: string, sitePath: string): Promise<Found | undefined | 'no-site'> {
  const deadline = Date.now() + SWAP_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    const before = await siteIdentity(root);
    const found = before === undefined ? 'no-site' : await findStaticFile(root, sitePath);
    if (found !== 'no-site' && found?.status === 200) return found;
    const after = await siteIdentity(root);
    const settled = before !== undefined && after === before;
    if (settled || Date.now() > deadline || attempt >= 200) return found;
    if (found && found !== 'no-site') await found.opened.handle.close().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, SWAP_POLL_MS));
  }
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

type Encoding = 'br' | 'gzip';

/** brotli if the client takes it, else gzip, else nothing; `q=0` (or a q that is no number) means refused. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',').slice(0, 64)) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=(.*)$/.exec(param)?.[1]?.trim()).find((value) => value !== undefined);
    // A weight that is no weight (RFC 9110 12.4.2: 0 to 1, three decimals at most) refuses the coding.
    accepted.set(name, q === undefined ? 1 : /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q) ? Number(q) : 0);
  }
  const takes = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return undefined;
}

/** Whether If-None-Match names this entity tag: `*`, or any in a list, compared weakly (RFC 9110 13.1.2). */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').slice(0, 64).some((tag) => opaque(tag) === opaque(etag));
}

export type ByteRange = { start: number; end: number };

/**
 * One byte range of a file of `size` bytes (`bytes=a-b`, `bytes=a-`, `bytes=-n`); 'unsatisfiable'
 * for one past the end; undefined (send the whole file) for anything else, several ranges included.
 */
export function byteRangeOf(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    const suffix = Number(last);
    // A suffix of nothing, or of an empty file, selects no byte (RFC 9110 §14.1.2).
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Compressed bodies, by file, modification time, size and encoding; bounded so it cannot grow unchecked.
const compressedCache = new Map<string, Buffer>();
const COMPRESSED_CACHE_BYTES = 64 * 1024 * 1024;
/** Larger files are not held in memory: their precompressed sibling is streamed, or they go uncompressed. */
const IN_MEMORY_MAX_BYTES = 1024 * 1024;
let compressedCacheSize = 0;

function remember(key: string, body: Buffer): Buffer {
  if (compressedCacheSize + body.length > COMPRESSED_CACHE_BYTES) {
    compressedCache.clear();
    compressedCacheSize = 0;
  }
  compressedCache.set(key, body);
  compressedCacheSize += body.length;
  return body;
}

/**
 * The body for `encoding`: the build's precompressed sibling (`.br`/`.gz`, at the highest level),
 * else the file compressed once here; held in memory when small, streamed when large; undefined
 * when a large file has no sibling (it goes uncompressed rather than compressed on every request).
 */
async function compressedBody(siteRoot: string, opened: OpenFile, encoding: Encoding): Promise<Buffer | OpenFile | undefined> {
  const key = `${encoding}:${opened.stats.mtimeMs}:${opened.stats.size}:${opened.file}`;
  const cached = compressedCache.get(key);
  if (cached) return cached;
  const sibling = await openInside(siteRoot, `${opened.file}.${encoding === 'br' ? 'br' : 'gz'}`);
  if (sibling && sibling.stats.size > IN_MEMORY_MAX_BYTES) return sibling;
  if (sibling) {
    try {
      return remember(key, await sibling.handle.readFile());
    } finally {
      await sibling.handle.close().catch(() => {});
    }
  }
  if (opened.stats.size > IN_MEMORY_MAX_BYTES) return undefined;
  const source = await opened.handle.readFile();
  const body =
    encoding === 'br'
      ? await brotli(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : await gzipAsync(source, { level: 6 });
  return remember(key, body);
}

/**
 * Streams `length` bytes of an open file from `start`, closing nothing (the caller closes the
 * handle). A client that goes away ends the stream; a file that came up short (truncated while
 * read) cuts the connection, so the client never takes a short body for a whole one.
 */
async function streamFile(response: ServerResponse, handle: FileHandle, start: number, length: number): Promise<void> {
  if (length === 0) {
    response.end();
    return;
  }
  const source = handle.createReadStream({ start, end: start + length - 1, autoClose: false });
  try {
    await pipeline(source, response, { end: false });
  } catch {
    // The client went away or the read failed: the connection is cut below.
  }
  if (source.bytesRead === length && !response.destroyed) response.end();
  else response.destroy();
}

export type HeadersFor = (sitePath: string, file: string) => Record<string, string>;

export interface StaticHandlerOptions {
  /** Extra headers for a site path (decoded and normalised: `/about/`, `/assets/app-1A2B3C4D.js`). */
  headers?: HeadersFor;
  /** Send text as brotli or gzip when the client accepts it: a `.br`/`.gz` file beside it, else compressed once and kept. */
  compress?: boolean;
  /** Rewrites HTML as it is served (dev mode injects its client); the file stays as built. */
  transformHtml?: (html: string, file: string) => string;
}

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
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
    const found = await findAcrossSwaps(absoluteRoot, sitePath);
    if (found !== 'no-site' && found?.status !== 200 && (await redirectedToPage(request, response, absoluteRoot, sitePath))) {
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
async function redirectedToPage(request: IncomingMessage, response: ServerResponse, root: string, sitePath: string): Promise<boolean> {
  if (!/[^/]\/+$/.test(sitePath)) return false;
  const page = sitePath.replace(/\/+$/, '');
  const found = await findStaticFile(root, page);
  if (!found || found === 'no-site') return false;
  await found.opened.handle.close().catch(() => {});
  // The page's own file (`news/hello.html` for `/news/hello/`), as the hosts and the nginx recipe have it.
  if (found.status !== 200 || path.basename(found.opened.file) !== `${path.posix.basename(page)}.html`) return false;
  // Bytes a header may not carry (a client may send them in the query) are percent-encoded.
  const query = (parseRequestTarget(request.url)?.search ?? '').replace(/[^\x21-\x7e]/g, (char) => encodeURIComponent(char));
  // Each segment encoded whole: a page named `a#b` is not sent to `/a` with a fragment.
  const location = page.split('/').map((segment) => encodeURIComponent(segment)).join('/');
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
  const headers: Record<string, string | number> = { 'Content-Type': type, ETag: etag, ...extraHeaders };
  if (status === 200 && matchesEntityTag(request.headers['if-none-match'], etag)) {
    response.writeHead(304, headers).end();
    return;
  }
  if (options.compress && isCompressible(type)) {
    headers.Vary = 'Accept-Encoding';
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const body = encoding && (await compressedBody(siteRoot, opened, encoding));
    if (body) {
      await sendCompressed(exchange, status, { ...headers, 'Content-Encoding': encoding! }, body);
      return;
    }
  }
  await sendIdentity(exchange, status, headers, opened);
}

async function sendCompressed(exchange: Exchange, status: number, headers: Record<string, string | number>, body: Buffer | OpenFile) {
  const { request, response } = exchange;
  if (Buffer.isBuffer(body)) {
    response.writeHead(status, { ...headers, 'Content-Length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
    return;
  }
  try {
    response.writeHead(status, { ...headers, 'Content-Length': body.stats.size });
    if (request.method === 'HEAD') response.end();
    else await streamFile(response, body.handle, 0, body.stats.size);
  } finally {
    await body.handle.close().catch(() => {});
  }
}

/** The file as it is, or the one byte range asked for (`If-Range` naming another version sends it whole). */
async function sendIdentity(exchange: Exchange, status: number, headers: Record<string, string | number>, opened: OpenFile) {
  const { request, response } = exchange;
  const size = opened.stats.size;
  const ifRange = request.headers['if-range'];
  const rangeApplies = status === 200 && (ifRange === undefined || ifRange === headers.ETag);
  const range = rangeApplies ? byteRangeOf(request.headers.range, size) : undefined;
  if (status === 200) headers['Accept-Ranges'] = 'bytes';
  if (range === 'unsatisfiable') {
    sendPlain(response, 416, 'Range Not Satisfiable', { 'Content-Range': `bytes */${size}` });
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  response.writeHead(range ? 206 : status, { ...headers, 'Content-Length': end - start + 1 });
  if (request.method === 'HEAD') response.end();
  else await streamFile(response, opened.handle, start, end - start + 1);
}
