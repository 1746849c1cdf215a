import type { FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { constants as zlibConstants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Transform } from 'node:stream';
import { byteRangeOf, type Encoding } from './content-negotiation.ts';
import { sendPlain } from './http-server.ts';
import { openInside, type OpenFile } from './static-lookup.ts';

export type ResponseHeaders = Record<string, string | number>;

export interface FileExchange {
  request: IncomingMessage;
  response: ServerResponse;
}

/** Larger files without a precompressed sibling go uncompressed rather than compressed on every request. */
const ON_THE_FLY_MAX_BYTES = 1024 * 1024;

/**
 * Streams `length` bytes of an open file from `start` (through `encoder` when given), closing
 * nothing (the caller closes the handle). A client that goes away ends the stream; a file that
 * came up short (truncated while read) cuts the connection, so the client never takes a short
 * body for a whole one.
 */
async function streamFile(
  response: ServerResponse,
  handle: FileHandle,
  range: { start: number; length: number },
  encoder?: Transform,
): Promise<void> {
  const { start, length } = range;
  if (length === 0 && !encoder) {
    response.end();
    return;
  }
  const source = handle.createReadStream({ start, end: Math.max(start, start + length - 1), autoClose: false });
  try {
    if (encoder) await pipeline(source, encoder, response, { end: false });
    else await pipeline(source, response, { end: false });
  } catch {
    // The client went away or the read failed: the connection is cut below.
  }
  if (source.bytesRead === length && !response.destroyed) response.end();
  else response.destroy();
}

function encoderFor(encoding: Encoding): Transform {
  return encoding === 'br'
    ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : createGzip({ level: 6 });
}

/**
 * The file in `encoding`: the build's precompressed sibling (`.br`/`.gz`) when there is one, else
 * compressed as it streams (pages have no sibling: the build leaves thousands of them to the
 * server). False, having sent nothing, for a large file without a sibling.
 */
export async function sendEncoded(
  exchange: FileExchange,
  answer: { status: number; headers: ResponseHeaders; siteRoot: string },
  opened: OpenFile,
  encoding: Encoding,
): Promise<boolean> {
  const { request, response } = exchange;
  const headers = { ...answer.headers, 'Content-Encoding': encoding };
  const sibling = await openInside(answer.siteRoot, `${opened.file}.${encoding === 'br' ? 'br' : 'gz'}`);
  if (sibling) {
    try {
      response.writeHead(answer.status, { ...headers, 'Content-Length': sibling.stats.size });
      if (request.method === 'HEAD') response.end();
      else await streamFile(response, sibling.handle, { start: 0, length: sibling.stats.size });
    } finally {
      await sibling.handle.close().catch(() => {});
    }
    return true;
  }
  if (opened.stats.size > ON_THE_FLY_MAX_BYTES) return false;
  response.writeHead(answer.status, headers);
  if (request.method === 'HEAD') response.end();
  else await streamFile(response, opened.handle, { start: 0, length: opened.stats.size }, encoderFor(encoding));
  return true;
}

/** The file as it is, or the one byte range asked for (`If-Range` naming another version sends it whole). */
export async function sendIdentity(
  exchange: FileExchange,
  status: number,
  headers: ResponseHeaders,
  opened: OpenFile,
): Promise<void> {
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
  else await streamFile(response, opened.handle, { start, length: end - start + 1 });
}
