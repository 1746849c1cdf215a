// An error's location from where the site's code declared a value (see declaration-site.ts): the
// file relative to the project root, and the line of the call or of one of its keys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DeclarationSite } from './declaration-site.ts';
import { lineOfProperty } from './property-line.ts';

/** How the site's bundle tells where one of its values was declared (its own declarationSiteOf). */
export type DeclarationSites = (value: unknown) => DeclarationSite | undefined;

/**
 * Where a value was declared (`site`), relative to `root`: the call's line, or the line of the
 * property at `property` (a path of keys) in the object the call was given, as far as the source writes it out.
 * Undefined when it was not recorded or the file is gone (a compiled bundle, without source maps).
 */
export function declaredLocation(
  site: DeclarationSite | undefined,
  root: string,
  property: readonly PropertyKey[] = [],
): { file: string; line: number } | undefined {
  if (!site) return undefined;
  let text: string;
  try {
    text = readFileSync(site.file, 'utf8');
  } catch {
    return undefined;
  }
  const file = path.relative(root, site.file).split(path.sep).join('/');
  // The object the call was given: from the call's own column on (`{ news: defineCollection({ … }) }`).
  const lines = text.split('\n');
  if (property.length === 0 || site.line > lines.length) return { file, line: site.line };
  const fromCall = [
    ...lines.slice(0, site.line - 1).map(() => ''),
    lines[site.line - 1]!.slice(Math.max(0, site.column - 1)),
    ...lines.slice(site.line),
  ].join('\n');
  return { file, line: lineOfProperty(fromCall, site.line, property) ?? site.line };
}
