// Moved addresses: the site's `redirects` map and articles' `aliases` / `redirect_from`, checked
// once and written for every host in its own form.
import type { Article } from '../content/article.ts';
import { catalogueError } from '../errors/errors.ts';
import type { RedirectRule, RedirectStatus } from './site-definition.ts';
import { outputPathFor } from './routes.ts';

/** One checked redirect: `from` answers `status` with `to`, its final destination. */
export interface Redirect {
  /** A path on the site, without a trailing slash (`/blog/hello`); its form with one redirects too. */
  from: string;
  /** A path on the site (query and fragment allowed) or an absolute http(s) URL. */
  to: string;
  status: RedirectStatus;
  /** Where it was declared: the site's file or the article's. */
  declaredIn: string;
}

/** A redirect as declared, before the checks. */
export interface DeclaredRedirect {
  from: string;
  rule: RedirectRule;
  declaredIn: string;
}

/**
 * The redirects a site declares: its `redirects` map, and each article's earlier addresses
 * (`movedFrom`, relative ones against its page's folder) to the page that shows it.
 */
export function declaredRedirects(input: {
  redirects?: Record<string, RedirectRule>;
  siteFile: string;
  articles: readonly Article[];
  pages: readonly { path: string; entry: Record<string, unknown> }[];
}): DeclaredRedirect[] {
  const declared = Object.entries(input.redirects ?? {}).map(([from, rule]) => ({
    from,
    rule,
    declaredIn: input.siteFile,
  }));
  const moved = input.articles.filter((article) => article.movedFrom);
  if (moved.length === 0) return declared;
  const pageOf = new Map<Article, string>();
  for (const page of input.pages)
    for (const value of Object.values(page.entry))
      if (moved.includes(value as Article) && !pageOf.has(value as Article)) pageOf.set(value as Article, page.path);
  for (const article of moved) {
    const page = pageOf.get(article);
    if (page === undefined)
      throw catalogueError('RedirectInvalid', ['noPage', article.movedFrom!.join(', ')], { file: article.file });
    for (const from of article.movedFrom!)
      declared.push({
        from: from.startsWith('/') ? from : relativeTo(from, page),
        rule: page,
        declaredIn: article.file,
      });
  }
  return declared;
}

/** `old-name` written by an article at `/news/hello` is `/news/old-name`, as Hugo reads aliases. */
function relativeTo(from: string, page: string): string {
  const folder = page.slice(0, page.lastIndexOf('/') + 1);
  const segments: string[] = [];
  for (const part of (folder + from).split('/')) {
    if (part === '..') segments.pop();
    else if (part !== '.' && part !== '') segments.push(part);
  }
  return `/${segments.join('/')}${from.endsWith('/') ? '/' : ''}`;
}

const STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
// Characters every host's rule file and nginx's configuration take as they are: a slug's, and `/`.
const SOURCE = /^\/[A-Za-z0-9._~/-]*$/;
// A destination is written into rule files, nginx's configuration and an HTML attribute: no
// spaces, quotes, variables or markup, which URLs percent-encode anyway.
const DESTINATION_UNSAFE = /[^\x21-\x7e]|["'\\$<>`{}^|]/;
const ABSOLUTE = /^https?:\/\/[^/?#]+/i;

/** `/blog/x/` and `/blog/x` are one source; `/` stays. */
const trimSlash = (from: string) => (from.length > 1 ? from.replace(/\/+$/, '') : from);

/** The path part of a destination on the site, as pages are named (`/news/x`, not `/news/x/`). */
const pagePath = (to: string) => trimSlash(to.replace(/[?#].*$/s, '')) || '/';

function checkedRule(declared: DeclaredRedirect): { from: string; to: string; status: RedirectStatus } {
  const { from, rule, declaredIn } = declared;
  const where = { file: declaredIn };
  if (typeof from !== 'string' || !SOURCE.test(from) || from.split('/').some((part) => part === '.' || part === '..')) {
    throw catalogueError('RedirectInvalid', ['source', String(from)], where);
  }
  const to = typeof rule === 'string' ? rule : rule?.destination;
  const status = typeof rule === 'string' ? 301 : (rule?.status ?? 301);
  if (
    typeof to !== 'string' ||
    to === '' ||
    DESTINATION_UNSAFE.test(to) ||
    !(to.startsWith('/') ? !to.startsWith('//') : ABSOLUTE.test(to))
  ) {
    throw catalogueError('RedirectInvalid', ['destination', from, String(to)], where);
  }
  if (!STATUSES.has(status)) throw catalogueError('RedirectInvalid', ['status', from, String(status)], where);
  return { from: trimSlash(from), to, status };
}

/**
 * Checks every declared redirect against the site's pages and files and follows chains to their
 * end, so a visitor takes one hop. Fails, naming the file that declared it, on a source that is a
 * page or a file, two redirects from one source, a destination on the site that is neither a page,
 * a file nor another redirect, and a loop.
 */
export function checkRedirects(
  declared: readonly DeclaredRedirect[],
  site: { pages: ReadonlySet<string>; files: ReadonlySet<string>; outputs?: ReadonlySet<string> },
): Redirect[] {
  // What the output already holds, as a disk that ignores case sees it: a source's page must not land there.
  const taken = new Set([...(site.outputs ?? []), ...site.files].map((file) => file.toLowerCase()));
  const bySource = new Map<string, Redirect>();
  for (const entry of declared) {
    const rule = checkedRule(entry);
    const earlier = bySource.get(rule.from);
    if (earlier) {
      if (earlier.to === rule.to && earlier.status === rule.status) continue;
      throw catalogueError('RedirectInvalid', ['twice', rule.from, earlier.declaredIn], { file: entry.declaredIn });
    }
    if (
      site.pages.has(rule.from) ||
      taken.has(rule.from.slice(1).toLowerCase()) ||
      taken.has(outputPathFor(rule.from).toLowerCase())
    ) {
      throw catalogueError('RedirectInvalid', ['isPage', rule.from], { file: entry.declaredIn });
    }
    bySource.set(rule.from, { ...rule, declaredIn: entry.declaredIn });
  }
  return [...bySource.values()].map((redirect) => ({ ...redirect, to: finalDestination(redirect, bySource, site) }));
}

function finalDestination(
  redirect: Redirect,
  bySource: ReadonlyMap<string, Redirect>,
  site: { pages: ReadonlySet<string>; files: ReadonlySet<string> },
): string {
  const seen = [redirect.from];
  let to = redirect.to;
  while (to.startsWith('/')) {
    const target = pagePath(to);
    const next = bySource.get(target);
    if (!next) {
      // Written as the page's own address: `/news/` would cost a second hop.
      if (site.pages.has(target) || site.files.has(target.slice(1))) return target + to.slice(to.search(/[?#]|$/));
      throw catalogueError('RedirectInvalid', ['nowhere', redirect.from, to], { file: redirect.declaredIn });
    }
    if (seen.includes(next.from))
      throw catalogueError('RedirectInvalid', ['loop', [...seen, next.from].join(' → ')], {
        file: redirect.declaredIn,
      });
    seen.push(next.from);
    // Where a browser following both hops ends: the next hop's query, and a fragment it lacks kept.
    const fragment = to.includes('#') ? to.slice(to.indexOf('#')) : '';
    to = next.to.includes('#') ? next.to : next.to + fragment;
  }
  return to;
}

/** Both forms of a source: `/blog/x` and `/blog/x/` (hosts match one of them only). */
const forms = (from: string) => (from === '/' ? ['/'] : [from, `${from}/`]);

/** Netlify's and Cloudflare Pages' `_redirects`: one rule per form of each source. */
export function redirectsFile(redirects: readonly Redirect[]): string {
  const lines = ["# Written by the build from the site's redirects and articles' aliases."];
  for (const redirect of redirects)
    for (const from of forms(redirect.from)) lines.push(`${from} ${redirect.to} ${redirect.status}`);
  return `${lines.join('\n')}\n`;
}

/** nginx `location` blocks for the server block's include: exact matches answer before any file. */
export function nginxRedirects(redirects: readonly Redirect[]): string[] {
  return redirects.flatMap((redirect) =>
    forms(redirect.from).map((from) => `location = ${from} { return ${redirect.status} "${redirect.to}"; }`),
  );
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page for hosts without rules: a canonical link and an immediate refresh, and a link to follow. */
export function redirectPage(redirect: Redirect, baseUrl: string): string {
  const absolute = redirect.to.startsWith('/') ? baseUrl + redirect.to : redirect.to;
  const href = escapeAttribute(absolute);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<meta charset="utf-8">',
    '<title>Moved</title>',
    '<meta name="robots" content="noindex">',
    `<link rel="canonical" href="${href}">`,
    `<meta http-equiv="refresh" content="0; url=${href}">`,
    `<p>This page moved to <a href="${href}">${escapeAttribute(absolute)}</a>.</p>`,
    '',
  ].join('\n');
}
