import { mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

/** One way a cache file can be damaged; fractions pick a place in the file whatever its size. */
export type Corruption =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'zero-length' }
  | { kind: 'garbage-json'; text: string }
  | { kind: 'garbage-bytes'; bytes: Uint8Array }
  | { kind: 'extend'; bytes: Uint8Array }
  | { kind: 'delete' }
  | { kind: 'directory'; withFile: boolean };

export const corruptionKinds = [
  'truncate',
  'flip',
  'zero-length',
  'garbage-json',
  'garbage-bytes',
  'extend',
  'delete',
  'directory',
] as const;

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

/** Every kind, with random places, bytes and text. */
export function corruptions(kinds: readonly Corruption['kind'][] = corruptionKinds): fc.Arbitrary<Corruption> {
  const all: Record<Corruption['kind'], fc.Arbitrary<Corruption>> = {
    truncate: fraction.map((at) => ({ kind: 'truncate', at })),
    flip: fc
      .record({ at: fraction, mask: fc.integer({ min: 1, max: 255 }) })
      .map((value) => ({ kind: 'flip', ...value })),
    'zero-length': fc.constant({ kind: 'zero-length' }),
    'garbage-json': fc.json({ maxDepth: 3 }).map((text) => ({ kind: 'garbage-json', text })),
    'garbage-bytes': fc.uint8Array({ minLength: 1, maxLength: 512 }).map((bytes) => ({ kind: 'garbage-bytes', bytes })),
    extend: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'extend', bytes })),
    delete: fc.constant({ kind: 'delete' }),
    directory: fc.boolean().map((withFile) => ({ kind: 'directory', withFile })),
  };
  return fc.oneof(...kinds.map((kind) => all[kind]));
}

/** Damages `file` (which exists) as `corruption` says. */
export function damage(file: string, corruption: Corruption): void {
  const bytes = readFileSync(file);
  switch (corruption.kind) {
    case 'truncate':
      truncateSync(file, Math.floor(corruption.at * bytes.length));
      return;
    case 'flip': {
      const at = Math.floor(corruption.at * bytes.length);
      bytes[at] = bytes[at]! ^ corruption.mask;
      writeFileSync(file, bytes);
      return;
    }
    case 'zero-length':
      writeFileSync(file, '');
      return;
    case 'garbage-json':
      writeFileSync(file, corruption.text);
      return;
    case 'garbage-bytes':
      writeFileSync(file, corruption.bytes);
      return;
    case 'extend':
      writeFileSync(file, Buffer.concat([bytes, corruption.bytes]));
      return;
    case 'delete':
      rmSync(file);
      return;
    case 'directory':
      rmSync(file);
      mkdirSync(file);
      if (corruption.withFile) writeFileSync(path.join(file, 'left-here.txt'), 'not the cache');
      return;
  }
}
