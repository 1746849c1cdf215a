import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import type { Message, Plugin } from 'esbuild';
import { catalogueError, type SsgError, SsgErrorList } from '../errors/errors.ts';
import { generatorRoot } from '../project.ts';

/** A file beside `file` whose name differs from its own only in case (`Callout.tsx` for `callout.tsx`). */
function sameNameButCase(file: string): string | undefined {
  const name = path.basename(file).toLowerCase();
  try {
    const found = readdirSync(path.dirname(file)).find((entry) => entry.toLowerCase() === name);
    return found && path.join(path.dirname(file), found);
  } catch {
    return undefined;
  }
}

/** `import ... from 'ssg'` means the generator's public surface, in its server or browser form. */
export function ssgAlias(target: 'server' | 'client'): Plugin {
  const entry = path.join(generatorRoot, 'src', target === 'server' ? 'index.ts' : 'index.client.ts');
  return {
    name: 'ssg-alias',
    setup(build) {
      build.onResolve({ filter: /^ssg$/ }, () => ({ path: entry }));
    },
  };
}

/**
 * Keeps packages out of the server bundle but pins each to the file esbuild resolved, as an
 * absolute URL: the bundle then loads the very React the generator's renderer loads, wherever the
 * site lives. With `remember`, each import is resolved once for the plugin's life (a context
 * rebuilt for many small bundles, whose packages do not move meanwhile).
 */
export function externalPackagesByPath(options: { remember?: boolean } = {}): Plugin {
  return {
    name: 'external-packages-by-path',
    setup(build) {
      type Result = Awaited<ReturnType<Parameters<typeof build.onResolve>[1]>>;
      const known = new Map<string, Result>();
      const resolve = async (args: esbuild.OnResolveArgs): Promise<Result> => {
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external) return { path: args.path, external: true };
        if (resolved.path.includes(`${path.sep}node_modules${path.sep}`)) {
          return { path: pathToFileURL(resolved.path).href, external: true };
        }
        return { path: resolved.path };
      };
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
        if (!options.remember) return resolve(args);
        const key = `${args.resolveDir}\0${args.path}`;
        let result = known.get(key);
        if (!result) {
          result = await resolve(args);
          if (!result?.errors) known.set(key, result);
        }
        return result;
      });
    },
  };
}

/** The package a bare import names: `react` for `react/jsx-runtime`, `@scope/pkg` for `@scope/pkg/x`. */
export function packageOf(specifier: string): string | undefined {
  if (/^(?:\.|\/|node:|[a-z]+:\/\/)/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether the project's package.json lists `name` as a dev dependency only. */
function listedAsDevOnly(root: string, name: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    return Boolean(manifest.devDependencies?.[name]) && !manifest.dependencies?.[name];
  } catch {
    return false;
  }
}

/**
 * esbuild's failures as our errors: file, line and message for each. An import that cannot be
 * resolved is no syntax error: a missing package is one error per package, however many files
 * import it, with the command that installs it; a missing file is named as such.
 */
export function fromEsbuildFailure(
  error: unknown,
  code: 'SiteCompileFailed' | 'ClientCompileFailed' | 'ApiRouteCompileFailed' | 'MdxImportFailed',
  root: string,
): unknown {
  const messages = (error as { errors?: Message[] }).errors;
  if (!Array.isArray(messages) || messages.length === 0) return error;
  const locationOf = (message: Message) => {
    const location = message.location;
    return {
      file: location ? path.relative(root, path.resolve(root, location.file)) : undefined,
      line: location?.line,
      column: location ? location.column + 1 : undefined,
    };
  };
  const missingPackages = new Map<string, Message[]>();
  const errors: SsgError[] = [];
  for (const message of messages) {
    const unresolved = /^Could not resolve "([^"]+)"/.exec(message.text)?.[1];
    const name = unresolved === undefined ? undefined : packageOf(unresolved);
    const unreadable = /^Cannot read file: (.+)$/.exec(message.text)?.[1];
    if (unreadable !== undefined && !existsSync(unreadable)) {
      const [shown, namedAs] = [path.relative(root, unreadable), sameNameButCase(unreadable)];
      errors.push(
        catalogueError('ImportNotFound', [shown, namedAs && path.relative(root, namedAs)], locationOf(message)),
      );
    } else if (name !== undefined) {
      missingPackages.set(name, [...(missingPackages.get(name) ?? []), message]);
    } else if (unresolved !== undefined) {
      errors.push(catalogueError('ImportNotFound', [unresolved], locationOf(message)));
    } else {
      errors.push(catalogueError(code, [message.text, message.location?.lineText], locationOf(message)));
    }
  }
  for (const [name, imports] of missingPackages) {
    const importers = new Set(imports.map((message) => message.location?.file)).size;
    errors.unshift(
      catalogueError('PackageMissing', [name, listedAsDevOnly(root, name), importers], locationOf(imports[0]!)),
    );
  }
  return errors.length === 1 ? errors[0] : new SsgErrorList(errors);
}
