// What a function of the site's bundle depends on: the module that defines it and every module it
// imports, in the compiled bundle, with the versions of the packages they import. A cached
// artefact made by that function (a drawn file, converted Markdown) is keyed by this, not by the
// whole site's code, so an edit to an unrelated page keeps it.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';
import { versionsOfPackages } from '../content/package-versions.ts';

/** The compiled bundle and esbuild's description of what it was made from. */
export interface BundleCode {
  code: Uint8Array;
  /** The metafile's inputs: each module's path (from the project root) and what it imports. */
  graph: esbuild.Metafile['inputs'];
}

interface Modules {
  text: string;
  /** Where each module's code starts in the bundle, in order: esbuild's `// path` line before it. */
  starts: Array<{ path: string; at: number }>;
  /** Where the inline source map starts: the end of the last module. */
  end: number;
}

const modulesOf = new WeakMap<BundleCode, Modules>();

/** The bundle's modules, found once per bundle by the comment esbuild writes before each (`// site/x.tsx`). */
function modules(bundle: BundleCode): Modules {
  let found = modulesOf.get(bundle);
  if (found) return found;
  const text = Buffer.from(bundle.code.buffer, bundle.code.byteOffset, bundle.code.byteLength).toString('utf8');
  const starts: Modules['starts'] = [];
  for (const match of text.matchAll(/^\/\/ (.+)$/gm)) {
    if (Object.hasOwn(bundle.graph, match[1]!)) starts.push({ path: match[1]!, at: match.index });
  }
  const map = text.lastIndexOf('\n//# sourceMappingURL=');
  found = { text, starts, end: map >= 0 ? map : text.length };
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
  if (module === undefined) return undefined;
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
