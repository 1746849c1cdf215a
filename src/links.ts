import { SsgError, SsgErrorList } from './errors.ts';

/** `href` and `src` values that point into this site: a leading `/`, but not `//` (another host). */
const INTERNAL = /\s(?:href|src)="(\/(?!\/)[^"#?]*)[^"]*"/g;

/**
 * Whether a URL path is served by one of the output files, the way the static hosts map clean
 * URLs: `/about` to `about`, `about.html` or `about/index.html`; `/docs/` only to `docs/index.html`.
 */
export function resolvesTo(urlPath: string, files: ReadonlySet<string>): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  const bare = decoded.replace(/^\/+/, '').replace(/\/+$/, '');
  if (bare === '') return files.has('index.html');
  if (decoded.endsWith('/')) return files.has(`${bare}/index.html`);
  return files.has(bare) || files.has(`${bare}.html`) || files.has(`${bare}/index.html`);
}

/**
 * Every internal link and source on every page must lead to a page, a generated file or a
 * public file. Paths under `ignore` (an API the server answers) are not checked.
 */
export function checkLinks(
  pages: ReadonlyArray<{ path: string; html: string }>,
  files: ReadonlySet<string>,
  ignore: readonly string[] = ['/api/'],
): void {
  const errors: SsgError[] = [];
  for (const page of pages) {
    const seen = new Set<string>();
    for (const match of page.html.matchAll(INTERNAL)) {
      const target = match[1]!.replaceAll('&amp;', '&');
      if (seen.has(target) || ignore.some((prefix) => target.startsWith(prefix))) continue;
      seen.add(target);
      if (!resolvesTo(target, files)) {
        errors.push(new SsgError('LinkBroken', `The page ${page.path} links to ${target}, which no route or public file provides.`));
      }
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}
