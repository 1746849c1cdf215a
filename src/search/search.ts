// The site's search, as its definition declares it: which routes' pages are indexed, which carry
// the search box (and so may run Pagefind's WebAssembly), checked once against the route table.
import { isPublished, type Article } from '../content/article.ts';
import { catalogueError, type ErrorDetails } from '../errors/errors.ts';
import type { PageJob } from '../render/routes.ts';
import type { PathHeader } from '../render/site-files.ts';

export type { SearchDefinition } from '../render/site-definition.ts';

/** Where the index is written and served from: Pagefind's own `pagefind/` folder. */
export const SEARCH_DIR = 'pagefind';

/** The address of the index for a page's search box: Pagefind's API is `pagefind.js` in it. */
export const SEARCH_BUNDLE_URL = `/${SEARCH_DIR}/`;

/** The CSP source Pagefind's WebAssembly needs on the pages that search (and its worker). */
export const WASM_SOURCE = "'wasm-unsafe-eval'";

/** The search as checked: sets of route paths. */
export interface SiteSearch {
  indexed: ReadonlySet<string>;
  pages: ReadonlySet<string>;
  language?: string;
}

const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function routeList(value: unknown, field: 'indexed' | 'pages', routes: ReadonlySet<string>, fail: Fail): string[] {
  if (!Array.isArray(value) || value.length === 0) throw fail(['notList', field]);
  for (const item of value) {
    if (typeof item !== 'string') throw fail(['notList', field]);
    if (!routes.has(item)) throw fail(['unknownRoute', field, item]);
  }
  return value as string[];
}

type Fail = (details: ErrorDetails<'SearchInvalid'>) => Error;

/**
 * Checks `defineSite({ search })` against the route table: each route named is one of the site's,
 * each list holds at least one, the language is a language tag. Undefined: the site has no search.
 */
export function checkSearch(value: unknown, routePaths: readonly string[], siteFile: string): SiteSearch | undefined {
  if (value === undefined) return undefined;
  const fail: Fail = (details) => catalogueError('SearchInvalid', details, { file: siteFile });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(['notObject']);
  const { indexed, pages, language, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw fail(['unknownField', unknown]);
  const routes = new Set(routePaths);
  const search: SiteSearch = {
    indexed: new Set(routeList(indexed, 'indexed', routes, fail)),
    pages: new Set(routeList(pages, 'pages', routes, fail)),
  };
  if (language === undefined) return search;
  if (typeof language !== 'string' || !LANGUAGE.test(language)) throw fail(['language', String(language)]);
  return { ...search, language };
}

/** The articles a page was handed through its route entry. */
function entryArticles(job: PageJob, known: ReadonlySet<Article>): Article[] {
  return Object.values(job.entry).filter((value): value is Article => known.has(value as Article));
}

/**
 * Whether a page goes into the index: its route is indexed, it is for search engines, and every
 * article it was handed is published for everyone (not a draft shown by `--drafts`, not a future
 * post shown by `--future` or by dev).
 */
export function isIndexedPage(search: SiteSearch, job: PageJob, known: ReadonlySet<Article>, now: Date): boolean {
  if (!search.indexed.has(job.route.path) || job.noindex) return false;
  return entryArticles(job, known).every((article) => isPublished(article, { now }));
}

/** The URL paths whose responses carry the search's Content-Security-Policy: its pages, and the index's files. */
export function searchPaths(search: SiteSearch, jobs: readonly PageJob[]): string[] {
  const pages = jobs.filter((job) => search.pages.has(job.route.path)).map((job) => job.path);
  return [...pages, `/${SEARCH_DIR}/*`];
}

/**
 * The Content-Security-Policy of a page that searches: the site's, with `'wasm-unsafe-eval'` in
 * `script-src` and `'self'` in `connect-src` (the index is fetched). A directive the policy lacks
 * is made from `default-src` as it would have applied.
 */
export function searchPolicy(policy: string): string {
  const directives = policy
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  const named = (name: string) => directives.findIndex((part) => part.toLowerCase().split(/\s+/)[0] === name);
  const fallback = directives[named('default-src')]?.replace(/^default-src\s*/i, '');
  const add = (name: string, source: string) => {
    const index = named(name);
    if (index >= 0) {
      const sources = directives[index]!.split(/\s+/).slice(1);
      const kept = sources.filter((item) => item !== "'none'");
      if (!kept.includes(source)) directives[index] = [name, ...kept, source].join(' ');
    } else if (fallback !== undefined) {
      const sources = fallback.split(/\s+/).filter((item) => item && item !== "'none'");
      directives.push([name, ...sources, ...(sources.includes(source) ? [] : [source])].join(' '));
    }
  };
  add('script-src', WASM_SOURCE);
  add('connect-src', "'self'");
  return directives.join('; ');
}

/**
 * The search's Content-Security-Policy, which its pages get in place of the site's, and the paths
 * it applies to; none when the site sends no policy.
 */
export function searchHeader(
  search: SiteSearch | undefined,
  jobs: readonly PageJob[],
  headers: Record<string, string> | undefined,
): PathHeader | undefined {
  const name = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'content-security-policy');
  if (!search || !name) return undefined;
  return { paths: searchPaths(search, jobs), name, value: searchPolicy(headers![name]!) };
}
