import path from 'node:path';
import { lookup } from 'mrmime';

/** Types mrmime leaves out that browsers still ask for by name. */
const MISSING_FROM_MRMIME: Record<string, string> = { ico: 'image/x-icon' };

/** Text a browser should decode as UTF-8 (the build writes nothing else); binaries carry no charset. */
const TEXT = /^(text\/|application\/(json|javascript|xml|manifest\+json)$)/;

/** The Content-Type of a file by its extension, `application/octet-stream` when unknown. */
export function contentTypeOf(file: string): string {
  const extension = path.extname(file).slice(1).toLowerCase();
  const type = lookup(extension) ?? MISSING_FROM_MRMIME[extension] ?? 'application/octet-stream';
  return TEXT.test(type) ? `${type}; charset=utf-8` : type;
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}
