// Where a site's code declared a value (`defineSite(…)`, `defineCollection(…)`): the place of the
// call in the module that ran it, so an error about the value can name the file that holds it.
// Only the call's raw place is kept (cheap, no source map read); declared-location.ts maps it to
// the site's source when an error needs it. No node: imports here: the module is part of the
// public surface, which browser bundles may reach.

/** The place of a call: the module's file or URL as it ran, and the line and column there (from 1). */
export interface DeclarationSite {
  file: string;
  line: number;
  column: number;
}

const sites = new WeakMap<object, DeclarationSite>();

type CallSite = { getFileName(): string | null; getLineNumber(): number | null; getColumnNumber(): number | null };

/** Remembers where `value` was made: the place of the call to `maker` (the function that received it). */
export function recordDeclarationSite(value: object, maker: Function): void {
  if (typeof Error.captureStackTrace !== 'function') return;
  const formatter = Error.prepareStackTrace;
  let call: CallSite | undefined;
  try {
    // The call sites themselves, unformatted: formatting would map every frame through the
    // bundle's source map, reading it on every load of the site's code.
    Error.prepareStackTrace = (_error, calls) => calls;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, maker);
    call = (holder.stack as CallSite[] | undefined)?.[0];
  } finally {
    Error.prepareStackTrace = formatter;
  }
  const file = call?.getFileName();
  const line = call?.getLineNumber();
  if (!file || !line) return;
  sites.set(value, { file, line, column: call!.getColumnNumber() ?? 1 });
}

/** Where `value` was declared (the call's place as it ran), when it was made by a maker that records it. */
export const declarationSiteOf = (value: unknown): DeclarationSite | undefined =>
  value && typeof value === 'object' ? sites.get(value) : undefined;
