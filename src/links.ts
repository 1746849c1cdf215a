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

/** The distinct internal link and source targets of one page, in order of appearance. */
export function internalLinks(html: string): string[] {
  const seen = new Set<string>();
  for (const match of html.matchAll(INTERNAL)) seen.add(match[1]!.replaceAll('&amp;', '&'));
  return [...seen];
}

/**
 * Every internal link and source on every page must lead to a page, a generated file or a
 * public file. Paths under `ignore` (an API the server answers) are not checked. Pages come with
 * their links already taken out (dev mode keeps them between rebuilds) or with their HTML.
 */
export function checkLinks(
  pages: ReadonlyArray<{ path: string; html: string } | { path: string; links: readonly string[] }>,
  files: ReadonlySet<string>,
  ignore: readonly string[] = ['/api/'],
): void {
  const errors: SsgError[] = [];
  // Most links (the header, the footer) are on every page: each target is resolved once.
  const resolved = new Map<string, boolean>();
  const leadsSomewhere = (target: string) => {
    let found = resolved.get(target);
    if (found === undefined) resolved.set(target, (found = ignore.some((prefix) => target.startsWith(prefix)) || resolvesTo(target, files)));
    return found;
  };
  for (const page of pages) {
    const links = 'links' in page ? page.links : internalLinks(page.html);
    for (const target of links) {
      if (!leadsSomewhere(target)) {
        errors.push(new SsgError('LinkBroken', `The page ${page.path} links to ${target}, which no route or public file provides.`));
      }
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
}
