// An error's location from where the site's code declared a value (see declaration-site.ts): the
// file relative to the project root, and the line of the call or of one of its keys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DeclarationSite } from './declaration-site.ts';

/** The line of `key: …` (or `key(`) at or after `from`, the first; undefined when it is not written so. */
function lineOfKey(text: string, key: string, from: number): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[\\s{,])(['"]?)${escaped}\\2\\s*[:(]`);
  const lines = text.split('\n');
  for (let index = from - 1; index < lines.length; index++) if (pattern.test(lines[index]!)) return index + 1;
  return undefined;
}

/** How the site's bundle tells where one of its values was declared (its own declarationSiteOf). */
export type DeclarationSites = (value: unknown) => DeclarationSite | undefined;

/**
 * Where a value was declared (`site`), relative to `root`: the call's line, or with `key` the
 * line of that key in the object declared there (its first at or after the call). Undefined when
 * it was not recorded or the file is gone (a compiled bundle, without source maps).
 */
export function declaredLocation(
  site: DeclarationSite | undefined,
  root: string,
  key?: string,
): { file: string; line: number } | undefined {
  if (!site) return undefined;
  let text: string;
  try {
    text = readFileSync(site.file, 'utf8');
  } catch {
    return undefined;
  }
  const file = path.relative(root, site.file).split(path.sep).join('/');
  return { file, line: (key !== undefined ? lineOfKey(text, key, site.line) : undefined) ?? site.line };
}
