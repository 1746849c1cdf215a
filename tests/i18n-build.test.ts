// A site in three languages, built: every page says its language, names each translation
// (reciprocally, with x-default), and the sitemap lists the alternates.
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hreflangLinks } from './helpers/hreflang.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

const SITE = `import { defineSite, type PageProps } from 'ssg';

const words = { en: 'About us', de: 'Über uns', fr: 'À propos' } as Record<string, string>;

function Layout({ children, alternates, locale }: PageProps & { children: React.ReactNode }) {
  return (
    <>
      <nav aria-label="Language">
        {alternates.map((alternate) => (
          <a key={alternate.locale} href={alternate.path} hrefLang={alternate.locale} aria-current={alternate.locale === locale ? 'page' : undefined}>
            {alternate.locale}
          </a>
        ))}
      </nav>
      <main>{children}</main>
    </>
  );
}

export default defineSite({
  i18n: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
  layout: Layout,
  routes: [
    { path: '/', page: ({ locale, localePath }: PageProps) => <a href={localePath('/about')}>{words[locale!]}</a>, head: ({ locale }) => ({ title: \`Home \${locale}\` }) },
    { path: '/about', paths: { de: '/ueber-uns' }, page: ({ locale }: PageProps) => <h1>{words[locale!]}</h1>, head: () => ({ title: 'About' }) },
    {
      path: '/news/:slug',
      locales: ['en', 'de'],
      page: ({ entry }: PageProps) => <h1>{String(entry.title)}</h1>,
      head: ({ entry }) => ({ title: String(entry.title) }),
      entries: ({ locale, data }) =>
        locale === 'de'
          ? [
              { params: { slug: 'hallo' }, props: { title: 'Hallo' }, translationKey: 'hello' },
              // A translation that content/site.yaml turns on: no code changes with it.
              ...((data as { site?: { translateOnly?: boolean } }).site?.translateOnly
                ? [{ params: { slug: 'nur-englisch' }, props: { title: 'Nicht mehr nur Englisch' }, translationKey: 'only' }]
                : []),
            ]
          : [
              { params: { slug: 'hello' }, props: { title: 'Hello' }, translationKey: 'hello' },
              { params: { slug: 'only-english' }, props: { title: 'Only English' }, translationKey: 'only' },
            ],
    },
    { path: '/404', page: () => <h1>Not found</h1>, head: () => ({ title: 'Not found' }) },
  ],
});
`;

describe('a site in English, German and French', () => {
  let site: TempSite;
  const page = (file: string) => readFileSync(site.file(`dist/${file}`), 'utf8');
  const hreflang = hreflangLinks;

  beforeAll(async () => {
    site = await copySite(fixture, ['dist', 'node_modules', '.cache']);
    await site.write('site/index.tsx', SITE);
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
  afterAll(() => site?.dispose());

  it('writes each page in each of its locales, each saying its language', () => {
    expect(page('index.html')).toMatch(/<html lang="en">/);
    expect(page('de.html')).toMatch(/<html lang="de">/);
    expect(page('de/ueber-uns.html')).toMatch(/<html lang="de">[\s\S]*<h1>Über uns<\/h1>/);
    expect(page('fr/about.html')).toMatch(/<html lang="fr">[\s\S]*À propos/);
    // localePath follows a route's own path in the locale.
    expect(page('de.html')).toContain('<a href="/de/ueber-uns">Über uns</a>');
    expect(page('fr.html')).toContain('<a href="/fr/about">À propos</a>');
  });

  it('names every translation and x-default, and each names it back', () => {
    const about = [
      'en https://fixture.example/about',
      'de https://fixture.example/de/ueber-uns',
      'fr https://fixture.example/fr/about',
      'x-default https://fixture.example/about',
    ];
    for (const file of ['about.html', 'de/ueber-uns.html', 'fr/about.html'])
      expect(hreflang(page(file))).toEqual(about);
    expect(hreflang(page('news/hello.html'))).toEqual(hreflang(page('de/news/hallo.html')));
    expect(hreflang(page('news/hello.html'))).toEqual([
      'en https://fixture.example/news/hello',
      'de https://fixture.example/de/news/hallo',
      'x-default https://fixture.example/news/hello',
    ]);
    // No translation, none named; a page kept from search engines names none either.
    expect(hreflang(page('news/only-english.html'))).toEqual([]);
    expect(hreflang(page('404.html'))).toEqual([]);
    // Its switcher still leads to the other languages' not-found pages.
    expect(page('de/404.html')).toContain('<a href="/404" hrefLang="en">en</a>');
    expect(page('de/ueber-uns.html')).toContain('<a href="/about" hrefLang="en">en</a>');
  });

  it('lists the alternates in the sitemap', () => {
    const sitemap = page('sitemap.xml');
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const entry = sitemap.split('\n').find((line) => line.includes('<loc>https://fixture.example/de/ueber-uns</loc>'))!;
    expect(entry).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://fixture.example/about"/>');
    expect(entry).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://fixture.example/about"/>');
    expect(sitemap).not.toContain('/de/404');
  });

  it('renders a page again when a translation of it appears in content, no code changed', async () => {
    const before = page('news/only-english.html');
    await site.write('content/site.yaml', 'baseUrl: https://fixture.example\ntranslateOnly: true\n');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(page('news/only-english.html')).not.toBe(before);
    expect(hreflang(page('news/only-english.html'))).toContain('de https://fixture.example/de/news/nur-englisch');
    expect(hreflang(page('de/news/nur-englisch.html'))).toContain('en https://fixture.example/news/only-english');
  }, 60_000);
});

describe('the search of a site in two languages', () => {
  it('makes one index per language, each page in its own', async () => {
    const site = await copySite(fixture, ['dist', 'node_modules', '.cache']);
    try {
      await site.write(
        'site/index.tsx',
        SITE.replace(
          'layout: Layout,\n',
          "layout: Layout,\n  search: { indexed: ['/news/:slug'], pages: ['/'] },\n",
        ).replace("props: { title: 'Hallo' }", "props: { title: 'Hallo Eichhörnchen' }"),
      );
      const result = await site.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      const entry = JSON.parse(readFileSync(site.file('dist/pagefind/pagefind-entry.json'), 'utf8')) as {
        languages: Record<string, { page_count: number }>;
      };
      // Pagefind indexes each language apart, by the page's lang: the German box searches German pages.
      expect(
        Object.fromEntries(Object.entries(entry.languages).map(([lang, { page_count }]) => [lang, page_count])),
      ).toEqual({
        en: 2,
        de: 1,
      });
      const fragments = readdirSync(site.file('dist/pagefind/fragment'));
      const german = fragments.filter((name) => name.startsWith('de_'));
      expect(german).toHaveLength(1);
      expect(gunzipSync(readFileSync(site.file(`dist/pagefind/fragment/${german[0]}`))).toString('utf8')).toContain(
        'Eichhörnchen',
      );
    } finally {
      await site.dispose();
    }
  }, 120_000);
});
