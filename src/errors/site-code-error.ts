import path from 'node:path';
import { adoptBundledSsgError, catalogueError, SsgError, type ErrorLocation } from './errors.ts';
import { generatorRoot } from '../project.ts';

const generatorSource = path.join(generatorRoot, 'src') + path.sep;

/** A frame in the site's code: not the generator's, not a package's, not a compiled bundle's. */
function isSiteFile(file: string, root: string | undefined): boolean {
  return (
    (root === undefined || file.startsWith(root + path.sep)) &&
    !file.startsWith(generatorSource) &&
    !file.includes(`${path.sep}node_modules${path.sep}`) &&
    !file.includes(`${path.sep}.cache${path.sep}`)
  );
}

/**
 * The first frame of a stack that points into the site's own source, as `file:line`
 * relative to the root. Bundles carry inline source maps and the CLI turns source maps on, so
 * frames name the `.tsx` file, not the compiled bundle.
 */
export function siteFrame(error: unknown, root?: string): ErrorLocation | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const match of stack.matchAll(/\(?(?:file:\/\/)?(\/[^():\s]+):(\d+):\d+\)?/g)) {
    const file = path.resolve(decodeURIComponent(match[1]!));
    if (isSiteFile(file, root === undefined ? undefined : path.resolve(root))) {
      // Without the root (a stage that is not told it), relative to where the CLI was started.
      return { file: path.relative(root ?? process.cwd(), file), line: Number(match[2]) };
    }
  }
  return undefined;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The catalogue's entries for the site's code throwing: worded `<what> threw: <what it threw>`. */
export type SiteCodeErrorCode = 'SiteModuleThrew' | 'RouteEntriesFailed' | 'GeneratedFileFailed' | 'ApiRouteThrew';

/**
 * An exception thrown by the site's code (a route's entries() or head(), a component, the top of
 * a site module) as an expected error naming the site file and line: the site's to fix, not a
 * bug of the generator. `what` says what ran, for example "entries() of /news/:slug".
 */
export function siteCodeError(
  code: SiteCodeErrorCode,
  what: string,
  error: unknown,
  root?: string,
  fallback: ErrorLocation = {},
): SsgError {
  if (error instanceof SsgError) return error;
  // The site's bundle holds its own copy of the generator's code: an error it made there (a
  // tag without letters met by tagGroup, say) is the generator's error all the same.
  const copied = adoptBundledSsgError(error);
  if (copied) return copied;
  return catalogueError(code, [what, describe(error)], siteFrame(error, root) ?? fallback, { cause: error });
}
