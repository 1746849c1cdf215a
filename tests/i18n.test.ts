// Locales in the route table: each route once per locale, each page linked to its translations
// (reciprocal, with x-default), and each mistake in `i18n` named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkI18n, localePath, routeLocalePath, withHtmlLang } from '../src/render/i18n.ts';
import { expandRoutes } from '../src/render/routes.ts';
import type { Route, SiteDefinition, SiteI18n } from '../src/render/site-definition.ts';

const page = () => null;
const head = () => ({ title: 't' });
const context = { articles: [], data: {}, collections: {} };
const site = (i18n: SiteI18n | undefined, routes: Route<any>[]): SiteDefinition => ({
  routes,
  ...(i18n ? { i18n } : {}),
});
const codeOf = (work: () => unknown) => {
  try {
    work();
    return 'none';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('the site’s locales', () => {
  const locale = fc.constantFrom('en', 'de', 'fr', 'de-AT', 'pt-BR', 'zh-Hant');

  it('writes each route once per locale, the default at the site’s own paths (fast-check)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(locale, { minLength: 1, maxLength: 4 }), fc.boolean(), (locales, prefix) => {
        const i18n = { locales, defaultLocale: locales[0]!, prefixDefaultLocale: prefix };
        const jobs = expandRoutes(
          site(i18n, [
            { path: '/', page, head },
            { path: '/about', page, head, paths: { [locales.at(-1)!]: '/local-about' } },
          ]),
          context,
        );
        expect(jobs).toHaveLength(2 * locales.length);
        for (const job of jobs) {
          const prefixed = prefix || job.locale !== locales[0];
          const own = job.route.path === '/about' && job.locale === locales.at(-1) ? '/local-about' : job.route.path;
          const expected = prefixed ? (own === '/' ? `/${job.locale}` : `/${job.locale}${own}`) : own;
          expect(job.path).toBe(expected);
          expect(job.path).not.toMatch(/\/\/|.\/$/);
          // Every page names each translation, itself among them, and each of them names it back.
          expect(job.alternates!.map((alternate) => alternate.locale)).toEqual(locales);
          for (const alternate of job.alternates!) {
            const twin = jobs.find((other) => other.path === alternate.path)!;
            expect(twin.alternates).toEqual(job.alternates);
          }
          const fallback = job.hreflang!.find((link) => link.hreflang === 'x-default');
          if (locales.length > 1)
            expect(fallback?.path).toBe(job.alternates!.find((a) => a.locale === locales[0])!.path);
          else expect(job.hreflang).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('links the pages of a dynamic route by translation key, in the locales the route has', () => {
    const people: Record<string, Array<[string, string]>> = {
      en: [
        ['anna', 'anna'],
        ['ben', 'ben'],
      ],
      de: [['anna-de', 'anna']],
    };
    const jobs = expandRoutes(
      site({ locales: ['en', 'de', 'fr'], defaultLocale: 'en' }, [
        {
          path: '/team/:name',
          locales: ['en', 'de'],
          page,
          head,
          entries: ({ locale }) => people[locale!]!.map(([name, key]) => ({ params: { name }, translationKey: key })),
        },
      ]),
      context,
    );
    expect(jobs.map((job) => job.path)).toEqual(['/team/anna', '/team/ben', '/de/team/anna-de']);
    const anna = jobs[0]!;
    expect(anna.hreflang).toEqual([
      { hreflang: 'en', path: '/team/anna' },
      { hreflang: 'de', path: '/de/team/anna-de' },
      { hreflang: 'x-default', path: '/team/anna' },
    ]);
    expect(jobs[2]!.hreflang).toEqual(anna.hreflang);
    // A page with no translation names none.
    expect(jobs[1]!.hreflang).toEqual([]);
  });

  it('names each mistake', () => {
    const routes = [{ path: '/', page, head }];
    const cases: Array<[unknown, string]> = [
      [{ locales: [], defaultLocale: 'en' }, 'I18nInvalid'],
      [{ locales: ['en', 'english'], defaultLocale: 'en' }, 'I18nInvalid'],
      [{ locales: ['en', 'en'], defaultLocale: 'en' }, 'I18nInvalid'],
      [{ locales: ['en', 'de'], defaultLocale: 'fr' }, 'I18nInvalid'],
      [{ locales: ['en'], defaultLocale: 'en', prefixDefaultLocale: 'yes' }, 'I18nInvalid'],
      [{ locales: ['en', 'de'], defaultLocale: 'de' }, 'none'],
    ];
    for (const [i18n, code] of cases)
      expect(codeOf(() => expandRoutes(site(i18n as SiteI18n, routes), context))).toBe(code);
    const i18n = { locales: ['en', 'de'], defaultLocale: 'en' };
    expect(codeOf(() => expandRoutes(site(i18n, [{ path: '/', page, head, locales: ['fr'] }]), context))).toBe(
      'RouteInvalid',
    );
    const other = { path: '/p/:id', page, head, paths: { de: '/q/:name' }, entries: () => [{ params: { id: 'a' } }] };
    expect(() => expandRoutes(site(i18n, [other]), context)).toThrow(
      /its path in "de", \/q\/:name, must have the same parameters/,
    );
    expect(codeOf(() => expandRoutes(site(undefined, [{ path: '/', page, head, paths: { de: '/x' } }]), context))).toBe(
      'RouteInvalid',
    );
    // The locale's prefix written into its own path: it would be /de/de/ueber-uns.
    for (const path of ['/de/ueber-uns', '/de'])
      expect(() => expandRoutes(site(i18n, [{ path: '/about', page, head, paths: { de: path } }]), context)).toThrow(
        `Route /about: its path in "de", ${path}, starts with /de, which is added to it (/de${path}); write ${path.slice(3) || '/'}.`,
      );
    expect(
      codeOf(() => expandRoutes(site(i18n, [{ path: '/deals', page, head, paths: { de: '/deals-de' } }]), context)),
    ).toBe('none');
    const twice = {
      path: '/p/:id',
      page,
      head,
      entries: () => [
        { params: { id: 'a' }, translationKey: 'k' },
        { params: { id: 'b' }, translationKey: 'k' },
      ],
    };
    expect(() => expandRoutes(site(i18n, [twice]), context)).toThrow(/translation key "k" to two pages of one locale/);
    // Two locales' pages may not land on one path: German home at /de, an English page at /de.
    const clash = [
      { path: '/', page, head },
      { path: '/de', page, head, locales: ['en'] },
    ];
    expect(codeOf(() => expandRoutes(site(i18n, clash), context))).toBe('RouteDuplicate');
    expect(checkI18n(undefined)).toBeUndefined();
  });

  it('gives a path in a locale, and the shell the page’s language', () => {
    const i18n = {
      locales: ['en', 'de'],
      defaultLocale: 'en',
      prefixDefaultLocale: false,
      fallback: {},
      strict: false,
      words: {},
    };
    expect([localePath(i18n, '/', 'de'), localePath(i18n, '/about', 'de'), localePath(i18n, '/about', 'en')]).toEqual([
      '/de',
      '/de/about',
      '/about',
    ]);
    expect(withHtmlLang('<!doctype html>\n<html lang="en">\n<head>', 'de')).toBe(
      '<!doctype html>\n<html lang="de">\n<head>',
    );
    expect(withHtmlLang('<html class="x">', 'de-AT')).toBe('<html lang="de-AT" class="x">');
    expect(withHtmlLang("<HTML data-a='1' LANG='en'>", 'de')).toBe('<HTML data-a=\'1\' lang="de">');
    // The first <html> outside a comment, its attributes read with their quotes.
    expect(withHtmlLang('<!-- <html lang="en"> -->\n<html lang="en">', 'de')).toBe(
      '<!-- <html lang="en"> -->\n<html lang="de">',
    );
    expect(withHtmlLang('<html data-x="a>b" lang="en">', 'de')).toBe('<html data-x="a>b" lang="de">');
    expect(withHtmlLang('<html-foo><html>', 'de')).toBe('<html-foo><html lang="de">');
  });

  it('gives a path in a locale through the route it is a page of', () => {
    const i18n = {
      locales: ['en', 'de', 'fr'],
      defaultLocale: 'en',
      prefixDefaultLocale: false,
      fallback: {},
      strict: false,
      words: {},
    };
    const routes: Route<any>[] = [
      { path: '/news/archive', page, head },
      { path: '/news/:slug', page, head, paths: { de: '/nachrichten/:slug' }, locales: ['en', 'de'] },
      { path: '/about', page, head, paths: { de: '/ueber-uns' } },
    ];
    const at = (path: string, locale: string) => routeLocalePath(i18n, routes, path, locale);
    expect(at('/news/archive', 'de')).toBe('/de/news/archive');
    expect(at('/news/x', 'de')).toBe('/de/nachrichten/x');
    expect(at('/about#team', 'de')).toBe('/de/ueber-uns#team');
    expect(at('/about/?a=1', 'de')).toBe('/de/ueber-uns?a=1');
    expect(at('/about', 'en')).toBe('/about');
    expect([at('about', 'de'), at('https://x.example/a', 'de'), at('//x.example', 'de')]).toEqual([
      'about',
      'https://x.example/a',
      '//x.example',
    ]);
  });
});
