// What a request asks of a file's body (its encoding, whether it changed, which bytes), read the
// way RFC 9110 says: sirv reads these by substring, which the attack suites on `ssg serve` refuse.

export type Encoding = 'br' | 'gzip';

/** brotli if the client takes it, else gzip, else nothing; `q=0` (or a q that is no number) means refused. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '')
    .split(',')
    .slice(0, 64)) {
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
  return header
    .split(',')
    .slice(0, 64)
    .some((tag) => opaque(tag) === opaque(etag));
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
