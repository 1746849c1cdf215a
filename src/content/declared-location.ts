// An error's location from where the site's code declared a value (see declaration-site.ts): the
// file relative to the project root, and the line of the call or of one of its keys.
import { readFileSync } from 'node:fs';
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeclarationSite } from './declaration-site.ts';
import { lineOfProperty } from './property-line.ts';

/** How the site's bundle tells where one of its values was declared (its own declarationSiteOf). */
export type DeclarationSites = (value: unknown) => DeclarationSite | undefined;

/**
 * The place in the site's source of a call's place in the module that ran it: through the module's
 * source map (the site's bundle carries one, read here only, when an error needs it), else as it is.
 */
function inSource(site: DeclarationSite): DeclarationSite {
  const entry = findSourceMap(site.file)?.findEntry(site.line - 1, site.column - 1) as
    { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  const source = entry?.originalSource;
  if (source === undefined || entry!.originalLine === undefined) return fromUrl(site);
  const file = source.startsWith('file:') ? source : new URL(source, site.file).href;
  return fromUrl({ file, line: entry!.originalLine + 1, column: (entry!.originalColumn ?? 0) + 1 });
}

/** A file URL as the file system's path. */
const fromUrl = (site: DeclarationSite): DeclarationSite =>
  site.file.startsWith('file:') ? { ...site, file: fileURLToPath(site.file) } : site;

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
  site = inSource(site);
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
