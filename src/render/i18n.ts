// Locales: each route exists once per locale of `defineSite({ i18n })` (`/about` and `/de/about`),
// each page knows its language and its translations (the same route, the same translation key, in
// another locale), and says both to browsers and search engines (`<html lang>`, `hreflang`).
import { ARTICLE_WORD_KEYS, type ArticleWords } from '../content/article-words.ts';
import { catalogueError } from '../errors/errors.ts';
import type { Route, SiteI18n } from './site-definition.ts';

/** A language tag ssg accepts: a language, optionally a region or script (`en`, `de-AT`, `zh-Hant`). */
const LOCALE = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/;

/** A parameter of a route's path, `:slug`. */
const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The site's locales as checked; none when the site has one language. */
export interface Locales {
  locales: readonly string[];
  defaultLocale: string;
  prefixDefaultLocale: boolean;
  /** For a locale, the locale whose untranslated articles its collections list too. */
  fallback: Readonly<Record<string, string>>;
  strict: boolean;
  /** The site's own words in articles, per locale, over the built-in ones. */
  words: Readonly<Record<string, Partial<ArticleWords>>>;
}

/** `i18n` of the site's definition, checked: each mistake named (`I18nInvalid`). */
export function checkI18n(value: SiteI18n | undefined): Locales | undefined {
  if (value === undefined) return undefined;
  const { locales, defaultLocale, prefixDefaultLocale = false } = value;
  if (!Array.isArray(locales) || locales.length === 0) throw catalogueError('I18nInvalid', ['noLocales']);
  for (const locale of locales as unknown[])
    if (typeof locale !== 'string' || !LOCALE.test(locale)) throw catalogueError('I18nInvalid', ['locale', locale]);
  const twice = locales.find((locale, index) => locales.indexOf(locale) !== index);
  if (twice !== undefined) throw catalogueError('I18nInvalid', ['twice', twice]);
  if (typeof defaultLocale !== 'string' || !locales.includes(defaultLocale))
    throw catalogueError('I18nInvalid', ['defaultLocale', defaultLocale, locales]);
  if (typeof prefixDefaultLocale !== 'boolean') throw catalogueError('I18nInvalid', ['prefix', prefixDefaultLocale]);
  const { fallback = {}, strict = false } = value;
  if (typeof strict !== 'boolean') throw catalogueError('I18nInvalid', ['strict', strict]);
  if (!fallback || typeof fallback !== 'object' || Array.isArray(fallback))
    throw catalogueError('I18nInvalid', ['fallback', fallback]);
  for (const [from, to] of Object.entries(fallback))
    if (!locales.includes(from) || typeof to !== 'string' || !locales.includes(to) || to === from)
      throw catalogueError('I18nInvalid', ['fallbackLocale', from, to, locales]);
  return { locales, defaultLocale, prefixDefaultLocale, fallback, strict, words: checkWords(value.words, locales) };
}

/** `i18n.words`: for locales of the site, texts for the words ssg writes in articles. */
function checkWords(words: unknown, locales: readonly string[]): Locales['words'] {
  if (words === undefined) return {};
  if (!words || typeof words !== 'object' || Array.isArray(words))
    throw catalogueError('I18nInvalid', ['words', words]);
  for (const [locale, own] of Object.entries(words)) {
    if (!locales.includes(locale)) throw catalogueError('I18nInvalid', ['wordsLocale', locale, locales]);
    for (const [key, text] of Object.entries((own ?? {}) as object))
      if (!(ARTICLE_WORD_KEYS as string[]).includes(key) || typeof text !== 'string')
        throw catalogueError('I18nInvalid', ['word', locale, key, ARTICLE_WORD_KEYS]);
  }
  return words as Locales['words'];
}

/** What a page or a route's entries in a locale see of the collections. */
export const localeView = (i18n: Locales, locale: string) =>
  i18n.fallback[locale] === undefined ? { locale } : { locale, fallback: i18n.fallback[locale] };

const checked = new WeakMap<object, Locales | undefined>();
/** The site's locales, checked once per definition. */
export function localesOf(site: { i18n?: SiteI18n }): Locales | undefined {
  if (!checked.has(site)) checked.set(site, checkI18n(site.i18n));
  return checked.get(site);
}

/** The prefix of a locale's pages: none for the default locale (unless prefixed), else `/de`. */
export const localePrefix = (i18n: Locales, locale: string) =>
  locale === i18n.defaultLocale && !i18n.prefixDefaultLocale ? '' : `/${locale}`;

/** A path of the site in a locale: `/about` in `de` is `/de/about`, `/` is `/de`. */
export function localePath(i18n: Locales, path: string, locale: string): string {
  const prefix = localePrefix(i18n, locale);
  return prefix === '' ? path : path === '/' ? prefix : `${prefix}${path}`;
}

/**
 * A path of the site (as the default locale has it: `/about`, `/news/x`) in a locale, through the
 * route it is a page of: that route's own path there (`paths`) when it has one, under the locale's
 * prefix (`/de/ueber-uns`); any other path under the prefix alone.
 */
export function routeLocalePath(i18n: Locales, routes: readonly Route<any>[], path: string, locale: string): string {
  // Only a path of the site: a relative path or a URL is left as it is; a query or fragment kept.
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  const at = path.search(/[?#]/);
  const [bare, rest] = at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  for (const { route, pattern, names } of matchers(routes)) {
    const match = pattern.exec(trimmed);
    if (!match) continue;
    const params = new Map(names.map((name, index) => [name, match[index + 1]!]));
    const own = route.paths?.[locale] ?? route.path;
    return (
      localePath(
        i18n,
        own.replace(PARAM, (_, name: string) => params.get(name) ?? `:${name}`),
        locale,
      ) + rest
    );
  }
  return localePath(i18n, trimmed, locale) + rest;
}

const compiled = new WeakMap<readonly Route<any>[], Array<{ route: Route<any>; pattern: RegExp; names: string[] }>>();

/**
 * Each route's pattern (`/news/:slug`) as a regular expression, made once per route table: the
 * routes without parameters first, then the others in their order.
 */
function matchers(routes: readonly Route<any>[]) {
  let made = compiled.get(routes);
  if (made) return made;
  const ordered = [...routes].sort((x, y) => Number(x.path.includes(':')) - Number(y.path.includes(':')));
  made = ordered.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(PARAM, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
  compiled.set(routes, made);
  return made;
}

/** Each locale a route exists in, with its path pattern there: its own (`paths`) or its path, under the locale's prefix. */
export function routePatterns(route: Route<any>, i18n: Locales | undefined): Array<{ locale?: string; path: string }> {
  if (!i18n) return [{ path: route.path }];
  if (route.locales !== undefined && (!Array.isArray(route.locales) || route.locales.length === 0))
    throw catalogueError('RouteInvalid', ['localesNotList', route.path]);
  if (
    route.paths !== undefined &&
    (typeof route.paths !== 'object' || route.paths === null || Array.isArray(route.paths))
  )
    throw catalogueError('RouteInvalid', ['pathsNotObject', route.path]);
  const locales = route.locales ?? i18n.locales;
  for (const locale of locales as unknown[])
    if (typeof locale !== 'string' || !i18n.locales.includes(locale))
      throw catalogueError('RouteInvalid', ['routeLocale', route.path, locale, i18n.locales]);
  for (const [locale, path] of Object.entries(route.paths ?? {})) {
    if (!locales.includes(locale)) throw catalogueError('RouteInvalid', ['routeLocale', route.path, locale, locales]);
    if (typeof path !== 'string' || !path.startsWith('/'))
      throw catalogueError('RouteInvalid', ['pathNotAbsolute', path]);
    const prefix = localePrefix(i18n, locale);
    if (prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`)))
      throw catalogueError('RouteInvalid', ['pathPrefixed', route.path, locale, path, prefix]);
    const names = (pattern: string) => [...pattern.matchAll(PARAM)].map((m) => m[1]).sort();
    if (names(path).join() !== names(route.path).join())
      throw catalogueError('RouteInvalid', ['localeParams', route.path, locale, path]);
  }
  return locales.map((locale) => ({ locale, path: localePath(i18n, route.paths?.[locale] ?? route.path, locale) }));
}

/** A translation of a page: its locale and its path. */
export interface Alternate {
  locale: string;
  path: string;
}

/** An `hreflang` link of a page: a locale (or `x-default`) and the path of the page in it. */
export interface HreflangPath {
  hreflang: string;
  path: string;
}

/** What a page of the site (`PageJob`) holds of its locale. */
interface LocalizedPage {
  route: { path: string };
  path: string;
  noindex: boolean;
  locale?: string;
  translationKey?: string;
  fallbackFor?: string;
  sourceFile?: string;
  alternates?: readonly Alternate[];
  hreflang?: readonly HreflangPath[];
}

/**
 * Gives each page of a locale its translations, itself among them: the pages of the same route
 * with the same translation key (the entry's `translationKey`, else its parameters), one per
 * locale. A key given twice in one locale is a mistake, named.
 */
export function linkTranslations(jobs: LocalizedPage[], i18n: Locales): void {
  const groups = new Map<string, LocalizedPage[]>();
  for (const job of jobs) {
    if (job.locale === undefined) continue;
    const id = `${job.route.path}\u0000${job.translationKey}`;
    const group = groups.get(id) ?? [];
    const twin = group.find((other) => other.locale === job.locale);
    const named = (page: LocalizedPage) => (page.sourceFile ? `${page.path} (${page.sourceFile})` : page.path);
    if (twin)
      throw catalogueError(
        'TranslationKeyDuplicate',
        [job.route.path, job.translationKey ?? '', named(twin), named(job)],
        job.sourceFile ? { file: job.sourceFile } : {},
      );
    group.push(job);
    groups.set(id, group);
  }
  const asAlternate = (job: LocalizedPage) => ({ locale: job.locale!, path: job.path });
  for (const group of groups.values()) {
    group.sort((a, b) => i18n.locales.indexOf(a.locale!) - i18n.locales.indexOf(b.locale!));
    // Every translation is an alternate (a not-found page's switcher leads to the others); only
    // those for search engines get hreflang links, on pages for search engines.
    const alternates = group.map(asAlternate);
    // A fallback page (an article of another locale) points search engines to the original.
    const indexable = group.filter((job) => !job.noindex && job.fallbackFor === undefined).map(asAlternate);
    // `x-default`: where a reader whose language is none of these is sent, the default locale's page.
    const fallback = indexable.find((alternate) => alternate.locale === i18n.defaultLocale);
    const hreflang =
      indexable.length < 2
        ? []
        : [
            ...indexable.map(({ locale, path }) => ({ hreflang: locale, path })),
            ...(fallback ? [{ hreflang: 'x-default', path: fallback.path }] : []),
          ];
    for (const job of group) {
      job.alternates = alternates;
      job.hreflang = job.noindex || job.fallbackFor !== undefined ? [] : hreflang;
    }
  }
}

/** The `hreflang` links of a page with translations, with absolute URLs. */
export const alternateLinks = (hreflang: readonly HreflangPath[] | undefined, baseUrl: string) =>
  (hreflang ?? []).map((link) => ({ hreflang: link.hreflang, href: baseUrl + link.path }));

/** What a page shows of its locale and translations, for the caches' keys: nothing for a site with one language. */
export const translationsOf = (job: Pick<LocalizedPage, 'locale' | 'hreflang' | 'alternates'>): unknown[] =>
  job.locale === undefined ? [] : [job.locale, job.hreflang ?? [], job.alternates ?? []];

/** The shell's start with the page's language on its `<html>` element (the first outside a comment). */
export function withHtmlLang(beforeHead: string, locale: string): string {
  const tag = /<!--[\s\S]*?-->|<html(?=[\s>/])(?:"[^"]*"|'[^']*'|[^'">])*>/gi;
  for (let found = tag.exec(beforeHead); found; found = tag.exec(beforeHead)) {
    if (found[0].startsWith('<!--')) continue;
    const lang = /(\s)lang\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i;
    const replaced = lang.test(found[0])
      ? found[0].replace(lang, `$1lang="${locale}"`)
      : found[0].replace(/^<html/i, `<html lang="${locale}"`);
    return beforeHead.slice(0, found.index) + replaced + beforeHead.slice(found.index + found[0].length);
  }
  return beforeHead;
}
