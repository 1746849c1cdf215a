import { catalogueError } from '../errors/errors.ts';
import { siteCodeError } from '../errors/site-code-error.ts';
import type { Route, RouteContext, RouteEntry, SiteDefinition } from './site-definition.ts';
import { groupByTag } from '../content/tags.ts';
import { linkTranslations, localesOf, routePatterns, type Alternate, type HreflangPath } from './i18n.ts';

/** One page to write: a route with its parameters filled in. */
export interface PageJob {
  route: Route<any>;
  /** The URL path, `/news/hello-world`. */
  path: string;
  params: Record<string, string>;
  /** The props the route's entries() gave this page. */
  entry: Record<string, unknown>;
  /** Where the page goes inside the output folder, `news/hello-world.html`. */
  outputPath: string;
  /** A not-found page: written as `404.html` and never indexed. */
  notFound: boolean;
  /** Kept from search engines: a not-found page, or a route marked `noindex`. */
  noindex: boolean;
  /** With `i18n`: the page's locale, what links it to its translations, and its translations (itself among them). */
  locale?: string;
  translationKey?: string;
  alternates?: readonly Alternate[];
  /** Its `hreflang` links (each translation, and `x-default`), when it has translations. */
  hreflang?: readonly HreflangPath[];
  /** An article of another locale shown in this one (`i18n.fallback`): the article's locale, where its canonical page is. */
  fallbackFor?: string;
  /** The article file it shows, when its entry hands it one of a locale: errors about its translations name it. */
  sourceFile?: string;
}

/**
 * The article a route entry hands its page as the page's own (`props.article`), when it is one of
 * a locale (it has a translation key). Other articles an entry holds (a tag's latest, the next
 * article) say nothing of the page's translations.
 */
function localizedArticle(props: unknown): { locale: string; translationKey: string; file: string } | undefined {
  const value = (props as { article?: unknown } | undefined)?.article as Record<string, unknown> | null | undefined;
  return typeof value?.markdown === 'string' &&
    typeof value.locale === 'string' &&
    typeof value.translationKey === 'string' &&
    typeof value.file === 'string'
    ? (value as { locale: string; translationKey: string; file: string })
    : undefined;
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/**
 * `/` → `index.html`, `/about` → `about.html`, `/news/404` → `news/404.html`. A file beside the
 * folder, not `about/index.html`: static hosts (Cloudflare Pages, Netlify) serve `about.html` at
 * `/about` as it is, but answer `/about` with a redirect to `/about/` when only the folder's
 * index exists, and `/about` is the canonical URL the links, the sitemap and the feed use.
 */
export function outputPathFor(urlPath: string): string {
  const segments = urlPath.split('/').filter(Boolean);
  if (segments.length === 0) return 'index.html';
  return `${segments.join('/')}.html`;
}

/** A route whose last segment is `404` is the not-found page of its folder. */
export function isNotFoundPath(urlPath: string): boolean {
  return urlPath.split('/').filter(Boolean).at(-1) === '404';
}

function fillParams(route: Route<any>, pattern: string, params: Record<string, string>): string {
  return pattern.replace(PARAM, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || !SAFE_SEGMENT.test(value)) {
      throw catalogueError('RouteInvalid', ['paramInvalid', route.path, name, value]);
    }
    return value;
  });
}

/** A route's entries(): site code, so what it throws is reported at its file and line. */
function listEntries<Data>(route: Route<Data>, context: RouteContext<Data>): RouteEntry[] {
  let entries: unknown;
  try {
    entries = route.entries!(context);
  } catch (error) {
    throw siteCodeError('RouteEntriesFailed', `entries() of the route ${route.path}`, error);
  }
  if (!Array.isArray(entries)) {
    throw catalogueError('RouteInvalid', ['entriesNotList', route.path, entries]);
  }
  return entries as RouteEntry[];
}

/** Every page of the site, in route-table order (each route in each of its locales); dynamic routes expanded by their entries. */
export function expandRoutes<Data>(
  site: SiteDefinition<Data>,
  context: RouteContext<Data>,
  /** With `i18n`: the lists a locale's entries() see (its own articles); the context's by default. */
  listsIn: (locale: string) => Pick<RouteContext<Data>, 'articles' | 'collections'> = () => context,
): PageJob[] {
  // A tag with no URL stops the build here, naming its file, before any page reads the tags.
  groupByTag(context.articles);
  const i18n = localesOf(site);
  const jobs: PageJob[] = [];
  const seen = new Map<string, string>();
  for (const route of site.routes) {
    if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
      throw catalogueError('RouteInvalid', ['pathNotAbsolute', route.path]);
    }
    if (typeof route.page !== 'function' || typeof route.head !== 'function') {
      throw catalogueError('RouteInvalid', ['noPageOrHead', route.path]);
    }
    if (!i18n && (route.locales !== undefined || route.paths !== undefined))
      throw catalogueError('RouteInvalid', ['noI18n', route.path]);
    const hasParams = route.path.includes(':');
    if (hasParams && !route.entries) {
      throw catalogueError('RouteInvalid', ['noEntries', route.path]);
    }
    for (const { locale, path: pattern } of routePatterns(route, i18n)) {
      // The context's lists are read only when entries() asks (dev records what it read).
      const inLocale = locale === undefined ? context : localeContext(context, locale, listsIn);
      const entries = hasParams ? listEntries(route, inLocale) : [{ params: {} }];
      for (const entry of entries) jobs.push(routeJob(route, pattern, locale, entry, seen));
    }
  }
  if (i18n) linkTranslations(jobs, i18n);
  return jobs;
}

/** The context of a locale's entries(): its locale, and its lists, made when first read. */
function localeContext<Data>(
  context: RouteContext<Data>,
  locale: string,
  listsIn: (locale: string) => Pick<RouteContext<Data>, 'articles' | 'collections'>,
): RouteContext<Data> {
  let lists: Pick<RouteContext<Data>, 'articles' | 'collections'> | undefined;
  const made = () => (lists ??= listsIn(locale));
  return Object.create(context, {
    locale: { value: locale },
    articles: { get: () => made().articles },
    collections: { get: () => made().collections },
  }) as RouteContext<Data>;
}

/**
 * An entry whose only prop is an article under another name (`{ post }`) would key its page by
 * its params, silently unlinked from the article's translations: refused, naming the prop.
 */
function refuseOtherArticleProp(route: Route<any>, props: unknown): void {
  const values = props && typeof props === 'object' ? Object.entries(props) : [];
  const [name, value] = values.length === 1 ? values[0]! : [];
  const article = value as Record<string, unknown> | undefined;
  if (name && typeof article?.markdown === 'string' && typeof article.translationKey === 'string')
    throw catalogueError('RouteInvalid', ['articleProp', route.path, name]);
}

/** A page's params as a translation key, whatever order they were given in. */
const paramsKey = (params: Record<string, string>) =>
  JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));

/** One page of a route in a locale, its output path not written by another. */
function routeJob(
  route: Route<any>,
  pattern: string,
  locale: string | undefined,
  entry: RouteEntry | undefined,
  seen: Map<string, string>,
): PageJob {
  const { params, props, translationKey } = (entry ?? {}) as Partial<RouteEntry>;
  if (!params || typeof params !== 'object') {
    throw catalogueError('RouteInvalid', ['entryWithoutParams', route.path]);
  }
  const path = fillParams(route, pattern, params);
  const outputPath = outputPathFor(path);
  const previous = seen.get(outputPath);
  if (previous) {
    throw catalogueError('RouteDuplicate', [previous, route.path, outputPath]);
  }
  seen.set(outputPath, route.path);
  // A not-found page in any locale, whatever its own path there.
  const notFound = isNotFoundPath(path) || isNotFoundPath(route.path);
  // An article's page is linked to its translations by the article's key, unless the entry gives one.
  const article = locale === undefined ? undefined : localizedArticle(props);
  if (locale !== undefined && !article) refuseOtherArticleProp(route, props);
  return {
    route,
    path,
    params,
    entry: props ?? {},
    outputPath,
    notFound,
    noindex: notFound || route.noindex === true,
    ...(locale === undefined
      ? {}
      : {
          locale,
          translationKey:
            typeof translationKey === 'string' ? translationKey : (article?.translationKey ?? paramsKey(params)),
        }),
    ...(article && article.locale !== locale ? { fallbackFor: article.locale } : {}),
    ...(article ? { sourceFile: article.file } : {}),
  };
}
