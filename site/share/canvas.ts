// An opaque RGB canvas kept as PNG scanlines (each row a filter byte, 0, then its pixels), and its
// PNG encoding. Cards are one background with text drawn over some rows: the rows a card leaves as
// the background are compressed once per run of rows and reused, so a card compresses only the
// rows it drew on, and only those are put back for the next card. Each run is its own deflate stream flushed to a byte boundary, so the runs
// join into one zlib stream; their Adler-32 sums are combined, not recomputed.
import { crc32, deflateRawSync, constants } from 'node:zlib';

export interface Canvas {
  readonly width: number;
  readonly height: number;
  /** Bytes per row: the filter byte and three per pixel. */
  readonly stride: number;
  /** The rows as drawn on now. */
  readonly rows: Uint8Array;
  /** The rows before any drawing, to put back after each card. */
  readonly original: Uint8Array;
  /** Rows drawn on since the last card. */
  readonly touched: Uint8Array;
  /** Compressed runs of rows left as they were, kept for every later card. */
  readonly runs: Map<string, Run>;
}

interface Run {
  deflated: Buffer;
  adler: number;
  length: number;
}

/** A canvas of the given RGB pixels (width × height × 3 bytes, row after row). */
export function canvasOf(pixels: Uint8Array, width: number, height: number): Canvas {
  if (pixels.length !== width * height * 3) throw new Error(`expected ${width * height * 3} bytes of RGB pixels, got ${pixels.length}`);
  const stride = 1 + width * 3;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * stride + 1);
  return { width, height, stride, rows, original: rows.slice(), touched: new Uint8Array(height), runs: new Map() };
}

/**
 * The PNG of the canvas with `draw` drawn over it; the canvas is as it was afterwards. Rows `draw`
 * left alone are encoded from the compressed runs kept by earlier cards.
 */
export function pngWith(canvas: Canvas, draw: (canvas: Canvas) => void): Buffer {
  try {
    draw(canvas);
    return encodePng(canvas);
  } finally {
    for (const [from, to, touched] of rowRuns(canvas.touched)) {
      if (touched) canvas.rows.set(canvas.original.subarray(from * canvas.stride, to * canvas.stride), from * canvas.stride);
    }
    canvas.touched.fill(0);
  }
}

/** Marks rows `from` (inclusive) to `to` (exclusive) as drawn on. */
export function touch(canvas: Canvas, from: number, to: number): void {
  canvas.touched.fill(1, Math.max(0, Math.floor(from)), Math.min(canvas.height, Math.ceil(to)));
}

const ADLER_BASE = 65521;

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < data.length; start += 5552) {
    const end = Math.min(data.length, start + 5552);
    for (let i = start; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two byte runs one after the other, from theirs (zlib's adler32_combine). */
function adlerCombine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** A run of rows as a deflate stream that ends on a byte boundary without a final block. */
function compress(data: Uint8Array, level: number): Run {
  return { deflated: deflateRawSync(data, { level, finishFlush: constants.Z_SYNC_FLUSH }), adler: adler32(data), length: data.length };
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The zlib header (deflate, 32 KB window) and a last, empty, fixed-Huffman block. */
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Runs of rows alike in being touched or not: [from, to, touched]. */
function rowRuns(touched: Uint8Array): [number, number, boolean][] {
  const runs: [number, number, boolean][] = [];
  for (let y = 0; y < touched.length; y++) {
    const last = runs.at(-1);
    if (last && last[2] === (touched[y] === 1)) last[1] = y + 1;
    else runs.push([y, y + 1, touched[y] === 1]);
  }
  return runs;
}

/**
 * The canvas as an 8-bit RGB PNG. Touched rows are compressed at `level` (fast by default: a
 * card's few hundred rows); untouched runs at the best level, once for every card.
 */
function encodePng(canvas: Canvas, level = 3): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(canvas.width, 0);
  header.writeUInt32BE(canvas.height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filters (all "none"), no interlace
  const parts: Buffer[] = [ZLIB_HEADER];
  let adler = 1;
  for (const [from, to, touched] of rowRuns(canvas.touched)) {
    const rows = canvas.rows.subarray(from * canvas.stride, to * canvas.stride);
    let run = touched ? undefined : canvas.runs.get(`${from}:${to}`);
    if (!run) {
      run = compress(rows, touched ? level : 9);
      if (!touched) canvas.runs.set(`${from}:${to}`, run);
    }
    parts.push(run.deflated);
    adler = adlerCombine(adler, run.adler, run.length);
  }
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler, 0);
  parts.push(FINAL_BLOCK, trailer);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', new Uint8Array(0))]);
}
