// An opaque RGB canvas kept as PNG scanlines (each row a filter byte, 0, then its pixels), and its
// PNG encoding. Cards are one background with text drawn over some rows: the rows a card leaves as
// the background are compressed once per run of rows and reused, so a card compresses only the
// rows it drew on, and only those are put back for the next card. Each run is its own zlib stream,
// compressed on libuv's threads, cut after a flush to a byte boundary: the runs join into one
// stream, and the Adler-32 sums zlib computed for each are combined.
import { constants, crc32, createDeflate } from 'node:zlib';

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
  readonly runs: Map<string, Promise<Run>>;
}

interface Run {
  /** Deflate blocks, the last not final, ending on a byte boundary. */
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
 * Rows drawn on are compressed fast (level 1): a card's few hundred rows, every card. About a
 * third larger than at level 6, for a third of the time; the files are for link previews.
 */
const DRAWN_LEVEL = 1;

/**
 * The PNG of the canvas with `draw` drawn over it. The canvas is as it was again once this returns
 * its promise (the rows drawn on are copied out to be compressed), so the next card can be drawn
 * while this one is compressed. Rows `draw` left alone come from the runs kept by earlier cards.
 */
export function pngWith(canvas: Canvas, draw: (canvas: Canvas) => void): Promise<Buffer> {
  let runs: Promise<Run>[];
  try {
    draw(canvas);
    runs = rowRuns(canvas.touched).map(([from, to, touched]) => {
      if (touched) return compress(canvas.rows.slice(from * canvas.stride, to * canvas.stride), DRAWN_LEVEL);
      const key = `${from}:${to}`;
      let run = canvas.runs.get(key);
      if (!run) {
        run = compress(canvas.original.subarray(from * canvas.stride, to * canvas.stride), 9); // never drawn on
        run.catch(() => canvas.runs.delete(key));
        canvas.runs.set(key, run);
      }
      return run;
    });
  } finally {
    for (const [from, to, touched] of rowRuns(canvas.touched)) {
      if (touched) canvas.rows.set(canvas.original.subarray(from * canvas.stride, to * canvas.stride), from * canvas.stride);
    }
    canvas.touched.fill(0);
  }
  return Promise.all(runs).then((done) => encodePng(canvas, done));
}

/** Marks rows `from` (inclusive) to `to` (exclusive) as drawn on. */
export function touch(canvas: Canvas, from: number, to: number): void {
  canvas.touched.fill(1, Math.max(0, Math.floor(from)), Math.min(canvas.height, Math.ceil(to)));
}

const ADLER_BASE = 65521;

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

/**
 * A run of rows compressed on libuv's threads: zlib's output after a sync flush (header cut off),
 * and the Adler-32 from the trailer that ending the stream then writes after an empty last block.
 */
function compress(data: Uint8Array, level: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const stream = createDeflate({ level });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      const all = Buffer.concat(chunks);
      // ... blocks, the flush's empty stored block, then 03 00 (an empty, final, fixed-Huffman block) and the sum.
      if (all.length < 8 || all[all.length - 6] !== 0x03 || all[all.length - 5] !== 0x00) return reject(new Error('zlib ended the stream in an unexpected way'));
      resolve({ deflated: all.subarray(2, all.length - 6), adler: all.readUInt32BE(all.length - 4), length: data.length });
    });
    stream.write(data);
    stream.flush(constants.Z_SYNC_FLUSH, () => stream.end());
  });
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

/** The canvas as an 8-bit RGB PNG, from its runs of rows compressed. */
function encodePng(canvas: Canvas, runs: Run[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(canvas.width, 0);
  header.writeUInt32BE(canvas.height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filters (all "none"), no interlace
  let adler = 1;
  for (const run of runs) adler = adlerCombine(adler, run.adler, run.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler, 0);
  const stream = Buffer.concat([ZLIB_HEADER, ...runs.map((run) => run.deflated), FINAL_BLOCK, trailer]);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', stream), chunk('IEND', new Uint8Array(0))]);
}
