import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Plugin } from 'esbuild';
import { catalogueError, SsgErrorList } from '../errors.ts';
import { generatorRoot } from '../project.ts';

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
 * site lives.
 */
export function externalPackagesByPath(): Plugin {
  return {
    name: 'external-packages-by-path',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
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
      });
    },
  };
}

/** esbuild's failures as our errors: file, line and message for each. */
export function fromEsbuildFailure(error: unknown, code: 'SiteCompileFailed' | 'ClientCompileFailed' | 'ApiRouteCompileFailed', root: string): unknown {
  const messages = (error as { errors?: Message[] }).errors;
  if (!Array.isArray(messages) || messages.length === 0) return error;
  const errors = messages.map((message) => {
    const location = message.location;
    const file = location ? path.relative(root, path.resolve(root, location.file)) : undefined;
    return catalogueError(code, [message.text, location?.lineText], {
      file,
      line: location?.line,
      column: location ? location.column + 1 : undefined,
    });
  });
  return errors.length === 1 ? errors[0] : new SsgErrorList(errors);
}
