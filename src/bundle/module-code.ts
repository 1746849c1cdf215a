// What a function of the site's bundle depends on: the module that defines it and every module it
// imports, in the compiled bundle, with the versions of the packages they import. A cached
// artefact made by that function (a drawn file, converted Markdown) is keyed by this, not by the
// whole site's code, so an edit to an unrelated page keeps it.
import { createHash } from 'node:crypto';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';
import { versionsOfPackages } from '../content/package-versions.ts';

/** The compiled bundle and esbuild's description of what it was made from. */
export interface BundleCode {
  code: Uint8Array;
  /** The metafile's inputs: each module's path (from the project root) and what it imports. */
  graph: esbuild.Metafile['inputs'];
  /** The modules with code in the bundle (the output's inputs with bytes in it). */
  emitted: ReadonlySet<string>;
}

interface Modules {
  text: string;
  /** Where each module's code starts in the bundle, in order: esbuild's `// path` line before it. */
  starts: Array<{ path: string; at: number }>;
  /** Where the inline source map starts: the end of the last module. */
  end: number;
  /** No source map to tell esbuild's lines from lines inside strings: which code is whose is unknown. */
  unknown: boolean;
}

const modulesOf = new WeakMap<BundleCode, Modules>();

/** The source file a line of the bundle (from 0) was compiled from, by its inline source map; undefined without one. */
function sourceOfLine(text: string, mapAt: number): ((line: number) => string | undefined) | undefined {
  const data = mapAt >= 0 ? /base64,([A-Za-z0-9+/=]+)/.exec(text.slice(mapAt))?.[1] : undefined;
  if (!data) return undefined;
  try {
    const map = new SourceMap(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as SourceMapPayload);
    return (line) => (map.findEntry(line, 0) as { originalSource?: string }).originalSource;
  } catch {
    return undefined;
  }
}

/** The bundle's modules, found once per bundle by the comment esbuild writes before each (`// site/x.tsx`). */
function modules(bundle: BundleCode): Modules {
  let found = modulesOf.get(bundle);
  if (found) return found;
  const text = Buffer.from(bundle.code.buffer, bundle.code.byteOffset, bundle.code.byteLength).toString('utf8');
  const starts: Modules['starts'] = [];
  const mapAt = text.lastIndexOf('\n//# sourceMappingURL=');
  const sourceAt = sourceOfLine(text, mapAt);
  let line = 0;
  let lineStart = 0;
  for (const match of text.matchAll(/^\/\/ (.+)$/gm)) {
    const module = match[1]!;
    if (!bundle.emitted.has(module)) continue;
    for (let at = text.indexOf('\n', lineStart); at !== -1 && at < match.index; at = text.indexOf('\n', lineStart)) {
      line += 1;
      lineStart = at + 1;
    }
    // esbuild's line, not one a string holds: the code after it is that module's in the source map.
    const source = sourceAt?.(line + 1);
    if (source === module || source?.endsWith(`/${module}`)) starts.push({ path: module, at: match.index });
  }
  found = { text, starts, end: mapAt >= 0 ? mapAt : text.length, unknown: sourceAt === undefined };
  modulesOf.set(bundle, found);
  return found;
}

/** The module whose code holds `fn`'s, or undefined when that is not one place in the bundle (a package's function, or text found twice). */
function moduleOf(bundle: BundleCode, fn: (...args: never[]) => unknown): string | undefined {
  const { text, starts } = modules(bundle);
  const source = Function.prototype.toString.call(fn);
  const at = text.indexOf(source);
  if (at < 0 || text.indexOf(source, at + 1) >= 0) return undefined;
  let module: string | undefined;
  for (const start of starts) {
    if (start.at > at) break;
    module = start.path;
  }
  return module;
}

/** `module` and every module it imports, directly or not, by path; and the packages they import, as files. */
function closureOf(graph: BundleCode['graph'], module: string): { modules: string[]; packages: string[] } {
  const seen = new Set([module]);
  const packages = new Set<string>();
  for (const current of seen) {
    for (const imported of graph[current]?.imports ?? []) {
      if (imported.external) {
        if (imported.path.startsWith('file:')) packages.add(fileURLToPath(imported.path));
      } else if (Object.hasOwn(graph, imported.path)) seen.add(imported.path);
    }
  }
  return { modules: [...seen].sort(), packages: [...packages] };
}

/**
 * A hash of the code `fn` runs: its module's compiled code and that of every module it imports,
 * and the versions of the packages those import; undefined for a function the bundle does not
 * hold in one module's code (a package's, or one written twice alike): the caller keys it otherwise.
 */
export function codeStampOf(bundle: BundleCode, fn: (...args: never[]) => unknown): string | undefined {
  const module = moduleOf(bundle, fn);
  if (module === undefined || modules(bundle).unknown) return undefined;
  const hash = createHash('sha256');
  const { text, starts, end } = modules(bundle);
  const { modules: closure, packages } = closureOf(bundle.graph, module);
  const wanted = new Set(closure);
  starts.forEach((start, index) => {
    if (wanted.has(start.path))
      hash.update(`${start.path}\0`).update(text.slice(start.at, starts[index + 1]?.at ?? end));
  });
  return hash.update(JSON.stringify([closure, versionsOfPackages(packages)])).digest('hex');
}
