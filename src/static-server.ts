import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

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
 * Maps a URL path to a file the way common static hosts do: `/about` and `/about/` serve
 * `about/index.html`; anything missing gets the nearest `404.html` up the path, with status 404.
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

  const candidates = decoded.endsWith('/') ? [path.join(target, 'index.html')] : [target, path.join(target, 'index.html')];
  for (const candidate of candidates) {
    if (await isFile(candidate)) return { file: candidate, status: 200 };
  }
  return nearestNotFound(root, path.dirname(relative));
}

async function nearestNotFound(root: string, folder: string): Promise<Resolved | undefined> {
  let current = folder === '.' ? '' : folder;
  for (;;) {
    const candidate = path.join(root, current, '404.html');
    if (await isFile(candidate)) return { file: candidate, status: 404 };
    if (current === '') return undefined;
    current = path.dirname(current) === '.' ? '' : path.dirname(current);
  }
}

export type HeadersFor = (urlPath: string, file: string) => Record<string, string>;

export interface StaticHandlerOptions {
  headers?: HeadersFor;
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
    const resolved = await resolveStaticPath(absoluteRoot, urlPath);
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
    const { size } = await stat(resolved.file);
    response.writeHead(resolved.status, {
      'Content-Type': contentTypeOf(resolved.file),
      'Content-Length': size,
      ...extraHeaders,
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(resolved.file).pipe(response);
  };
}
