// Where a site's code declared a value (`defineSite(…)`, `defineCollection(…)`): the file and line
// of the call, read from the call's stack (mapped to the site's source, since the site's bundle
// carries a source map), so an error about the value names the file that holds it.

/** A file (absolute), and the line and column of the call. */
export interface DeclarationSite {
  file: string;
  line: number;
  column: number;
}

const sites = new WeakMap<object, DeclarationSite>();

/** The first frame of a stack: `at fn (file:///a/b.ts:12:3)` or `at file:///a/b.ts:12:3`. */
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/m;

/** Remembers where `value` was made: the caller of `maker` (the function that received it). */
export function recordDeclarationSite(value: object, maker: Function): void {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, maker);
  const frame = FRAME.exec(holder.stack?.split('\n').slice(1).join('\n') ?? '');
  if (!frame) return;
  // No node: imports here: the module is part of the public surface that browser bundles may reach.
  // A file URL's path, as the file system names it (`/C:/site/x.ts` on Windows is `C:/site/x.ts`).
  const location = frame[1]!.startsWith('file:')
    ? decodeURIComponent(new URL(frame[1]!).pathname).replace(/^\/([A-Za-z]:\/)/, '$1')
    : frame[1]!;
  if (!location.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(location)) return;
  sites.set(value, { file: location, line: Number(frame[2]), column: Number(frame[3]) });
}

/**
 * Where `value` was declared, when it was made by a maker that records it. Without source maps
 * the stack names the site's compiled bundle, removed once loaded: check the file is there.
 */
export const declarationSiteOf = (value: unknown): DeclarationSite | undefined =>
  value && typeof value === 'object' ? sites.get(value) : undefined;
