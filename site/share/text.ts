// Text drawn into a canvas without a browser: HarfBuzz shapes it (kerning, ligatures, marks, as a
// browser would), lines break after spaces, hyphens and dashes (inside a word only when the word
// alone is too wide), and each glyph is rasterised once per size and quarter-pixel offset, with
// exact area coverage, then blended over the canvas wherever it recurs.
import { inflateSync } from 'node:zlib';
import * as hb from 'harfbuzzjs';
import { touch, type Canvas } from './canvas.ts';

export interface Typeface {
  font: hb.Font;
  /** Reused by every shaping: HarfBuzz's objects are freed only when collected. */
  buffer: hb.Buffer;
  upem: number;
  ascender: number;
  descender: number;
  glyphs: Map<string, GlyphImage>;
}

interface GlyphImage {
  left: number;
  top: number;
  width: number;
  height: number;
  alpha: Uint8Array;
  /** Per row, the first column with coverage and one past the last (0, 0 for an empty row): blending skips the rest. */
  spans: Int32Array;
}

/** Larger than any table of a real font (Noto CJK's glyphs are about 16 MB): bounds what a damaged file may make us unpack. */
const MAX_TABLE = 64 * 1024 * 1024;

/** A WOFF font's tables unpacked into the plain OpenType file HarfBuzz reads; other files as they are. Throws on a damaged WOFF. */
export function sfntOf(file: Uint8Array): Uint8Array {
  const view = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (view.toString('latin1', 0, 4) !== 'wOFF') return file;
  const damaged = (what: string) => new Error(`a damaged WOFF file: ${what}`);
  const count = view.length >= 44 ? view.readUInt16BE(12) : 0;
  if (count === 0 || count >= 4096 || 44 + count * 20 > view.length) throw damaged('its table directory is missing, cut short or impossibly long');
  if (view.readUInt32BE(8) !== view.length) throw damaged(`it is ${view.length} bytes long where its header says ${view.readUInt32BE(8)}`);
  const tables = Array.from({ length: count }, (_, index) => {
    const entry = 44 + index * 20;
    const [offset, stored, length] = [view.readUInt32BE(entry + 4), view.readUInt32BE(entry + 8), view.readUInt32BE(entry + 12)];
    const tag = view.toString('latin1', entry, entry + 4);
    if (offset + stored > view.length) throw damaged(`table ${tag} lies outside the file`);
    if (stored > length || length > MAX_TABLE) throw damaged(`table ${tag} says it is ${length} bytes, stored in ${stored}`);
    const bytes = view.subarray(offset, offset + stored);
    let data: Uint8Array;
    try {
      data = stored < length ? inflateSync(bytes, { maxOutputLength: length }) : bytes;
    } catch {
      throw damaged(`table ${tag} does not unpack`);
    }
    if (data.length !== length) throw damaged(`table ${tag} unpacks to ${data.length} bytes, not ${length}`);
    return { tag: view.subarray(entry, entry + 4), checksum: view.readUInt32BE(entry + 16), data };
  });
  const padded = (length: number) => (length + 3) & ~3;
  const out = Buffer.alloc(12 + count * 16 + tables.reduce((total, table) => total + padded(table.data.length), 0));
  view.copy(out, 0, 4, 8); // the flavour: TrueType or CFF outlines
  const power = 2 ** Math.floor(Math.log2(count));
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log2(power), 8);
  out.writeUInt16BE((count - power) * 16, 10);
  let at = 12 + count * 16;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    out.set(table.tag, record);
    out.writeUInt32BE(table.checksum, record + 4);
    out.writeUInt32BE(at, record + 8);
    out.writeUInt32BE(table.data.length, record + 12);
    out.set(table.data, at);
    at += padded(table.data.length);
  });
  return out;
}

/** The font in `file` (TrueType, OpenType or WOFF); `name` says which file in errors. */
export function loadTypeface(file: Uint8Array, name = 'the font'): Typeface {
  let face: hb.Face;
  try {
    face = new hb.Face(new hb.Blob(sfntOf(file)));
  } catch (error) {
    throw new Error(`${name} cannot be read: ${(error as Error).message}. Replace it with a TrueType, OpenType or WOFF font.`);
  }
  const font = new hb.Font(face);
  const { ascender, descender } = font.hExtents();
  const letter = font.glyph(0x41);
  // 'A' must have an outline: a font whose outline tables are damaged would draw every title blank.
  if (face.upem === 0 || ascender === 0 || letter === undefined || font.glyphToJson(letter).length === 0) {
    throw new Error(`${name} is not a font HarfBuzz can read, or has no outlines for Latin letters. Replace it with a TrueType, OpenType or WOFF font.`);
  }
  return { font, buffer: new hb.Buffer(), upem: face.upem, ascender, descender, glyphs: new Map() };
}

/** A glyph placed on a line: x in pixels from the line's start. */
interface Placed {
  glyph: number;
  x: number;
  /** Up from the baseline, in pixels (a mark stacked over another). */
  y: number;
  /** Where this glyph's text starts, in UTF-16 units. */
  cluster: number;
}

interface Shaped {
  glyphs: Placed[];
  width: number;
}

function shape(face: Typeface, text: string, size: number): Shaped {
  const buffer = face.buffer;
  buffer.reset();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  buffer.setDirection(hb.Direction.LTR); // lines are broken in reading order; the card's fonts have no right-to-left scripts
  hb.shape(face.font, buffer);
  const scale = size / face.upem;
  let x = 0;
  const glyphs = buffer.getGlyphInfosAndPositions().map((info) => {
    const placed = { glyph: info.codepoint, x: x + (info.xOffset ?? 0) * scale, y: (info.yOffset ?? 0) * scale, cluster: info.cluster };
    x += (info.xAdvance ?? 0) * scale;
    return placed;
  });
  return { glyphs, width: x };
}

export interface TextStyle {
  size: number;
  /** Line height in pixels. */
  lineHeight: number;
  /** Widest line in pixels. */
  width: number;
  /** More lines than this end the last one in an ellipsis. */
  maxLines: number;
}

export interface TextLayout {
  lines: Placed[][];
  style: TextStyle;
  face: Typeface;
}

const isSpace = (char: string | undefined) => char === ' ';
/** Where a line may end: after a space (dropped there) or a hyphen or dash (kept). */
const breaksAfter = (char: string | undefined) => char === ' ' || char === '-' || char === '\u2010' || char === '\u2013' || char === '\u2014';

/** Lines of at most `style.width`, broken after spaces and dashes; a word too wide alone breaks between glyphs. */
export function layoutText(face: Typeface, text: string, style: TextStyle): TextLayout {
  const { glyphs, width: total } = shape(face, text, style.size);
  const lines: Placed[][] = [];
  let start = 0;
  while (start < glyphs.length && lines.length <= style.maxLines) {
    const origin = glyphs[start]!.x;
    let end = start;
    let lastBreak = -1;
    while (end < glyphs.length) {
      // A line ends where the next glyph starts or where this one's own advance ends, whichever
      // is further: kerning may pull the next glyph in under this one's edge.
      const right = Math.max(glyphs[end + 1]?.x ?? total, lineEnd(face, [glyphs[end]!], style.size)) - origin;
      if (right > style.width && !isSpace(text[glyphs[end]!.cluster]) && end > start) break;
      if (breaksAfter(text[glyphs[end]!.cluster])) lastBreak = end;
      end++;
    }
    if (end < glyphs.length && lastBreak >= start) end = lastBreak + 1;
    const line = glyphs.slice(start, end).map((glyph) => ({ ...glyph, x: glyph.x - origin }));
    while (line.length > 0 && isSpace(text[line.at(-1)!.cluster])) line.pop();
    lines.push(line);
    start = end;
  }
  if (lines.length > style.maxLines) {
    lines.length = style.maxLines;
    lines[style.maxLines - 1] = withEllipsis(face, text, lines[style.maxLines - 1]!, style);
  }
  return { lines, style, face };
}

/** The line cut where an ellipsis still fits after it (and after no space). */
function withEllipsis(face: Typeface, text: string, line: Placed[], style: TextStyle): Placed[] {
  const ellipsis = shape(face, '…', style.size);
  const advance = (glyphs: Placed[], index: number) => Math.max(glyphs[index + 1]?.x ?? 0, lineEnd(face, [glyphs[index]!], style.size)) - glyphs[index]!.x;
  const kept = [...line];
  const endOf = () => (kept.length === 0 ? 0 : kept.at(-1)!.x + advance(line, kept.length - 1));
  while (kept.length > 0 && (endOf() + ellipsis.width > style.width || isSpace(text[kept.at(-1)!.cluster]))) kept.pop();
  const at = endOf();
  return [...kept, ...ellipsis.glyphs.map((glyph) => ({ ...glyph, x: glyph.x + at, cluster: -1 }))];
}

/** Where a line ends: its last glyph's advance added to its position. */
function lineEnd(face: Typeface, line: Placed[], size: number): number {
  const last = line.at(-1);
  return last ? last.x + (face.font.glyphHAdvance(last.glyph) * size) / face.upem : 0;
}

const SUBPIXELS = 4;

/** The glyph's coverage at this size and quarter-pixel offset, drawn once. */
function glyphImage(face: Typeface, glyph: number, size: number, subpixel: number): GlyphImage {
  const key = `${glyph}:${size}:${subpixel}`;
  let image = face.glyphs.get(key);
  if (!image) {
    image = rasterise(face.font.glyphToJson(glyph), size / face.upem, subpixel / SUBPIXELS);
    face.glyphs.set(key, image);
  }
  return image;
}

/** The outline's coverage, y pointing down, the origin at (shift, 0). */
function rasterise(commands: hb.SvgPathCommand[], scale: number, shift: number): GlyphImage {
  const points = commands.flatMap((command) => command.values).map((value, index) => (index % 2 === 0 ? value * scale + shift : -value * scale));
  if (points.length === 0) return { left: 0, top: 0, width: 0, height: 0, alpha: new Uint8Array(0), spans: new Int32Array(0) };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let index = 0; index < points.length; index += 2) {
    minX = Math.min(minX, points[index]!);
    maxX = Math.max(maxX, points[index]!);
    minY = Math.min(minY, points[index + 1]!);
    maxY = Math.max(maxY, points[index + 1]!);
  }
  const left = Math.floor(minX);
  const top = Math.floor(minY);
  const width = Math.ceil(maxX) - left + 2;
  const height = Math.ceil(maxY) - top + 1;
  const area = new Float32Array(width * height + 2);
  const line = (x0: number, y0: number, x1: number, y1: number) => accumulate(area, width, height, x0 - left, y0 - top, x1 - left, y1 - top);
  let [x, y, startX, startY] = [0, 0, 0, 0];
  for (const { type, values } of commands) {
    const at = (index: number) => [values[index]! * scale + shift, -values[index + 1]! * scale] as const;
    if (type === 'M') {
      if (x !== startX || y !== startY) line(x, y, startX, startY);
      [x, y] = at(0);
      [startX, startY] = [x, y];
    } else if (type === 'L') {
      const [nx, ny] = at(0);
      line(x, y, nx, ny);
      [x, y] = [nx, ny];
    } else if (type === 'Q' || type === 'C') {
      const controls = type === 'Q' ? [at(0)] : [at(0), at(2)];
      const [nx, ny] = at(type === 'Q' ? 2 : 4);
      const steps = Math.max(1, Math.ceil(Math.sqrt(Math.hypot(nx - x, ny - y) + controls.reduce((sum, [cx, cy]) => sum + Math.hypot(cx - x, cy - y), 0)) * 1.5));
      let [px, py] = [x, y];
      for (let step = 1; step <= steps; step++) {
        const [qx, qy] = bezier([x, y], controls, [nx, ny], step / steps);
        line(px, py, qx, qy);
        [px, py] = [qx, qy];
      }
      [x, y] = [nx, ny];
    } else if (type === 'Z') {
      line(x, y, startX, startY);
      [x, y] = [startX, startY];
    }
  }
  if (x !== startX || y !== startY) line(x, y, startX, startY);
  const alpha = new Uint8Array(width * height);
  const spans = new Int32Array(height * 2);
  let sum = 0;
  for (let y = 0; y < height; y++) {
    let [first, end] = [0, 0];
    for (let x = 0, index = y * width; x < width; x++, index++) {
      sum += area[index]!;
      const value = Math.min(255, Math.round(Math.abs(sum) * 255));
      alpha[index] = value;
      if (value !== 0) {
        if (end === 0) first = x;
        end = x + 1;
      }
    }
    spans[y * 2] = first;
    spans[y * 2 + 1] = end;
  }
  return { left, top, width, height, alpha, spans };
}

function bezier(from: readonly [number, number], controls: (readonly [number, number])[], to: readonly [number, number], t: number): [number, number] {
  let points = [from, ...controls, to];
  while (points.length > 1) points = points.slice(1).map((point, index) => [points[index]![0] + (point[0] - points[index]![0]) * t, points[index]![1] + (point[1] - points[index]![1]) * t] as const);
  return [points[0]![0], points[0]![1]];
}

/**
 * Adds a line's signed area to the cells it crosses (font-rs's accumulation rasteriser): the
 * running sum of a row, left to right, is then the coverage of each pixel.
 */
function accumulate(area: Float32Array, width: number, height: number, x0: number, y0: number, x1: number, y1: number): void {
  if (y0 === y1) return;
  const dir = y0 < y1 ? 1 : -1;
  if (dir < 0) [x0, y0, x1, y1] = [x1, y1, x0, y0];
  const dxdy = (x1 - x0) / (y1 - y0);
  let x = x0 - Math.min(0, y0) * dxdy;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(height, Math.ceil(y1)); y++) {
    const row = y * width;
    const dy = Math.min(y + 1, y1) - Math.max(y, y0);
    const next = x + dxdy * dy;
    const d = dy * dir;
    const [lo, hi] = x < next ? [x, next] : [next, x];
    const loFloor = Math.floor(lo);
    const loCell = loFloor;
    const hiCell = Math.ceil(hi);
    if (hiCell <= loCell + 1) {
      const middle = 0.5 * (x + next) - loFloor;
      area[row + loCell] += d - d * middle;
      area[row + loCell + 1] += d * middle;
    } else {
      const s = 1 / (hi - lo);
      const loFraction = lo - loFloor;
      const first = 0.5 * s * (1 - loFraction) * (1 - loFraction);
      const hiFraction = hi - hiCell + 1;
      const last = 0.5 * s * hiFraction * hiFraction;
      area[row + loCell] += d * first;
      if (hiCell === loCell + 2) {
        area[row + loCell + 1] += d * (1 - first - last);
      } else {
        const second = s * (1.5 - loFraction);
        area[row + loCell + 1] += d * (second - first);
        for (let cell = loCell + 2; cell < hiCell - 1; cell++) area[row + cell] += d * s;
        const beforeLast = second + (hiCell - loCell - 3) * s;
        area[row + hiCell - 1] += d * (1 - beforeLast - last);
      }
      area[row + hiCell] += d * last;
    }
    x = next;
  }
}

/** Draws the text with its first line's top at (`left`, `top`), in `color` ([r, g, b]). */
export function drawText(canvas: Canvas, layout: TextLayout, left: number, top: number, color: readonly [number, number, number]): void {
  const { face, style } = layout;
  const scale = style.size / face.upem;
  // CSS's half-leading: the line box centres the font's ascender-to-descender height.
  const baseline0 = top + (style.lineHeight - (face.ascender - face.descender) * scale) / 2 + face.ascender * scale;
  // The whole line box counts as drawn on, so that cards with as many lines leave the same rows
  // alone (and share their compressed runs) whichever letters they hold.
  touch(canvas, top, top + layout.lines.length * style.lineHeight);
  layout.lines.forEach((line, index) => {
    const baseline = Math.round(baseline0 + index * style.lineHeight);
    for (const placed of line) {
      const x = left + placed.x;
      const whole = Math.floor(x);
      const image = glyphImage(face, placed.glyph, style.size, Math.floor((x - whole) * SUBPIXELS));
      blend(canvas, image, whole + image.left, baseline - Math.round(placed.y) + image.top, color);
    }
  });
}

function blend(canvas: Canvas, image: GlyphImage, left: number, top: number, color: readonly [number, number, number]): void {
  const { rows, stride } = canvas;
  const fromY = Math.max(0, -top);
  const toY = Math.min(image.height, canvas.height - top);
  const fromX = Math.max(0, -left);
  const toX = Math.min(image.width, canvas.width - left);
  if (fromY >= toY || fromX >= toX) return;
  touch(canvas, top + fromY, top + toY);
  const [red, green, blue] = color;
  for (let y = fromY; y < toY; y++) {
    const from = Math.max(fromX, image.spans[y * 2]!);
    const to = Math.min(toX, image.spans[y * 2 + 1]!);
    let at = (top + y) * stride + 1 + (left + from) * 3;
    let source = y * image.width + from;
    for (let x = from; x < to; x++, at += 3, source++) {
      const alpha = image.alpha[source]!;
      if (alpha === 0) continue;
      if (alpha === 255) {
        rows[at] = red;
        rows[at + 1] = green;
        rows[at + 2] = blue;
        continue;
      }
      // background + (colour - background) × alpha / 255, rounded, in integers (× 257 / 65536 ≈ / 255)
      const weight = alpha * 257;
      rows[at] += ((red - rows[at]!) * weight + 32768) >> 16;
      rows[at + 1] += ((green - rows[at + 1]!) * weight + 32768) >> 16;
      rows[at + 2] += ((blue - rows[at + 2]!) * weight + 32768) >> 16;
    }
  }
}
