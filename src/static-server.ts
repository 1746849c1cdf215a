import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

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

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export interface Resolved {
  file: string;
  status: 200 | 404;
}

/**
 * Maps a URL path to a file the way common static hosts do: `/about` serves `about`, else
 * `about.html`, else `about/index.html`; `/about/` only `about/index.html`; anything missing gets
 * the nearest `404.html` up the path, with status 404.
 * Returns undefined when there is not even a root 404 page.
 */
export async function resolveStaticPath(root: string, urlPath: string): Promise<Resolved | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    decoded = '/';
  }
  const relative = path.posix.normalize(`/${decoded}`).slice(1);
  const target = path.join(root, relative);
  if (!target.startsWith(root) || decoded.includes('\0')) return nearestNotFound(root, '');

  // `/.` normalises to the root itself: its `.html` sibling would lie outside the root.
  const candidates = decoded.endsWith('/') || relative === ''
    ? [path.join(target, 'index.html')]
    : [target, `${target}.html`, path.join(target, 'index.html')];
  for (const candidate of candidates) {
    if (await isFile(candidate)) return { file: candidate, status: 200 };
  }
  return nearestNotFound(root, path.dirname(relative));
}

export async function nearestNotFound(root: string, folder: string): Promise<Resolved | undefined> {
  let current = folder === '.' ? '' : folder;
  for (;;) {
    const candidate = path.join(root, current, '404.html');
    if (await isFile(candidate)) return { file: candidate, status: 404 };
    if (current === '') return undefined;
    current = path.dirname(current) === '.' ? '' : path.dirname(current);
  }
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

type Encoding = 'br' | 'gzip';

/** brotli if the client takes it, else gzip, else nothing; `q=0` means refused. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const takes = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return undefined;
}

// Compressed bodies, by file, modification time and encoding; bounded so it cannot grow unchecked.
const compressedCache = new Map<string, Buffer>();
const COMPRESSED_CACHE_BYTES = 64 * 1024 * 1024;
let compressedCacheSize = 0;

async function compressed(file: string, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${mtimeMs}:${file}`;
  const cached = compressedCache.get(key);
  if (cached) return cached;
  let body: Buffer;
  try {
    // The build writes precompressed siblings of its text assets, at the highest level.
    body = await readFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`);
  } catch {
    const source = await readFile(file);
    body =
      encoding === 'br'
        ? brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipSync(source, { level: 6 });
  }
  if (compressedCacheSize + body.length > COMPRESSED_CACHE_BYTES) {
    compressedCache.clear();
    compressedCacheSize = 0;
  }
  compressedCache.set(key, body);
  compressedCacheSize += body.length;
  return body;
}

export type HeadersFor = (urlPath: string, file: string) => Record<string, string>;

export interface StaticHandlerOptions {
  headers?: HeadersFor;
  /** Send text as brotli or gzip when the client accepts it: a `.br`/`.gz` file beside it, else compressed once and kept. */
  compress?: boolean;
  /** Rewrites HTML as it is served (dev mode injects its client); the file stays as built. */
  transformHtml?: (html: string, file: string) => string;
}

/** A request handler serving a built site from `root`. */
export function createStaticHandler(root: string, options: StaticHandlerOptions = {}) {
  const absoluteRoot = path.resolve(root);
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed');
      return;
    }
    const urlPath = new URL(request.url ?? '/', 'http://localhost').pathname;
    // Host configuration files are read by the server, never served.
    const hidden = /^\/_(headers|redirects)(\.|$)/.test(urlPath);
    const resolved = hidden ? await nearestNotFound(absoluteRoot, '') : await resolveStaticPath(absoluteRoot, urlPath);
    if (!resolved) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const extraHeaders = options.headers?.(urlPath, resolved.file);
    if (options.transformHtml && resolved.file.endsWith('.html')) {
      const html = Buffer.from(options.transformHtml(await readFile(resolved.file, 'utf8'), resolved.file));
      response.writeHead(resolved.status, {
        'Content-Type': contentTypeOf(resolved.file),
        'Content-Length': html.length,
        ...extraHeaders,
      });
      response.end(request.method === 'HEAD' ? undefined : html);
      return;
    }
    const stats = await stat(resolved.file);
    const type = contentTypeOf(resolved.file);
    const etag = `W/"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
    const headers: Record<string, string | number> = { 'Content-Type': type, ETag: etag, ...extraHeaders };
    if (resolved.status === 200 && request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    if (options.compress && isCompressible(type)) {
      headers.Vary = 'Accept-Encoding';
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (encoding) {
        const body = await compressed(resolved.file, stats.mtimeMs, encoding);
        response.writeHead(resolved.status, { ...headers, 'Content-Encoding': encoding, 'Content-Length': body.length });
        response.end(request.method === 'HEAD' ? undefined : body);
        return;
      }
    }
    response.writeHead(resolved.status, { ...headers, 'Content-Length': stats.size });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(resolved.file).pipe(response);
  };
}
