// A site in two languages whose articles and words live in content/: each locale's articles in its
// folder, linked to their translations by file name or translationKey, and its strings file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../src/output/output-file.ts';
import { devSite } from './helpers/dev-site.ts';
import { hreflangLinks } from './helpers/hreflang.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

export const CONTENT_SITE = `import { defineSite, groupByTag, type PageProps } from 'ssg';

function Layout({ children, alternates, locale, t }: PageProps & { children: React.ReactNode }) {
  return (
    <>
      <nav aria-label={t('nav.language')}>
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

function List({ articles, localePath, t }: PageProps) {
  return (
    <>
      <h1>{t('news.title')}</h1>
      <p className="count">{t('news.count', { count: articles.length })}</p>
      <ul>
        {articles.map((article) => (
          <li key={article.slug} lang={article.locale}>
            <a href={localePath(\`/news/\${article.slug}\`)}>{article.title}</a>
          </li>
        ))}
      </ul>
    </>
  );
}

export default defineSite({
  i18n: { locales: ['en', 'de'], defaultLocale: 'en' },
  layout: Layout,
  feed: (data, locale) => ({
    path: '/news/feed.xml',
    title: locale === 'de' ? 'Neuigkeiten' : 'News',
    description: 'Updates.',
    link: (article) => \`/news/\${article.slug}\`,
  }),
  routes: [
    { path: '/news', page: List, head: ({ t }) => ({ title: t('news.title') }) },
    {
      path: '/news/:slug',
      paths: { de: '/nachrichten/:slug' },
      page: ({ entry }: PageProps<Record<string, unknown>, { article: { title: string; html: string } }>) => (
        <article><h1>{entry.article.title}</h1><div dangerouslySetInnerHTML={{ __html: entry.article.html }} /></article>
      ),
      head: ({ entry }) => ({ title: String((entry as { article: { title: string } }).article.title) }),
      entries: ({ collections }) =>
        collections.news.map((article) => ({ params: { slug: article.slug }, props: { article } })),
    },
    {
      path: '/news/tags/:tag',
      page: ({ entry }: PageProps) => <h1>{String(entry.tag)}</h1>,
      head: ({ entry }) => ({ title: String(entry.tag) }),
      // Another article in the props (the tag's latest) is not the page's own: tag pages are keyed by their tag.
      entries: ({ articles }) => groupByTag(articles).map((group) => ({ params: { tag: group.slug }, props: { tag: group.name, latest: group.articles[0] } })),
    },
    { path: '/404', page: () => <h1>404</h1>, head: () => ({ title: '404' }) },
  ],
});
`;

const article = (title: string, extra = '', body = 'Body.') =>
  `---\ntitle: ${title}\ndate: 2025-01-0${1 + (title.length % 8)}\n${extra}---\n\n${body}\n`;

export async function writeContentSite(site: TempSite, code = CONTENT_SITE): Promise<void> {
  await site.remove('content/news');
  await site.write('site/index.tsx', code);
  const body = (note: string) =>
    `Text[^1].\n\n## Part\n\n> [!WARNING]\n> Careful.\n\n\`\`\`sh\nls\n\`\`\`\n\n[^1]: ${note}`;
  await site.write('content/news/hello.md', article('Hello', 'tags: [staking]\n', body('A note.')));
  await site.write('content/news/only-english.md', article('Only English'));
  // The same file name: a translation.
  await site.write('content/news/de/hello.md', article('Hallo', 'tags: [staking, wien]\n', body('Eine Anmerkung.')));
  // Another file name, linked by its key.
  await site.write('content/news/de/nur-deutsch.md', article('Nur Deutsch', 'translationKey: german-only\n'));
  await site.write('content/news/de/neuigkeit.md', article('Neuigkeit', 'translationKey: update\n'));
  await site.write('content/news/update.md', article('Update'));
  await site.write(
    'content/strings/en.yaml',
    'nav:\n  language: Language\nnews:\n  title: News\n  count: "{count} articles"\n',
  );
  await site.write(
    'content/strings/de.yaml',
    'nav:\n  language: Sprache\nnews:\n  title: Neuigkeiten\n  count: "{count} Artikel"\n',
  );
}

describe('articles and words per locale, from content/', () => {
  let site: TempSite;
  let stderr = '';
  const page = (file: string) => readFileSync(site.file(`dist/${file}`), 'utf8');
  const hreflang = hreflangLinks;

  beforeAll(async () => {
    site = await copySite(fixture, ['dist', 'node_modules', '.cache']);
    await writeContentSite(site);
    const result = await site.run(['build']);
    stderr = result.stderr;
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
  afterAll(() => site?.dispose());

  it("lists each locale's own articles on its pages, in its words", () => {
    expect(page('news.html')).toMatch(/<h1>News<\/h1>[\s\S]*3 articles/);
    expect(page('de/news.html')).toMatch(/<h1>Neuigkeiten<\/h1>[\s\S]*3 Artikel/);
    expect(page('news.html')).toContain('href="/news/only-english"');
    expect(page('news.html')).not.toContain('Hallo');
    expect(page('de/news.html')).toContain('<a href="/de/nachrichten/nur-deutsch">Nur Deutsch</a>');
    expect(page('de/news.html')).not.toContain('Only English');
    expect(existsSync(site.file('dist/de/nachrichten/only-english.html'))).toBe(false);
    expect(page('de/nachrichten/hello.html')).toMatch(/<html lang="de">[\s\S]*<h1>Hallo<\/h1>/);
  });

  it("writes the generator's words in an article in its language", () => {
    const german = page('de/nachrichten/hello.html');
    expect(german).toContain('>Fußnoten</h2>');
    expect(german).toContain('aria-label="Zurück zum Verweis 1"');
    expect(german).toContain('aria-label="Code kopieren">Kopieren</button>');
    expect(german).toMatch(/data-props="[^"]*copied[^"]*Kopiert[^"]*"/);
    expect(german).toContain('<p class="markdown-alert-title">Warnung</p>');
    expect(german).toContain('aria-label="Link zum Abschnitt „Part“"');
    expect(german).not.toMatch(/Footnotes|Back to reference|>Copy<|Link to|>Warning</);
    const english = page('news/hello.html');
    expect(english).toContain('>Footnotes</h2>');
    expect(english).toContain('aria-label="Back to reference 1"');
    expect(english).toContain('data-props="{}"');
    expect(english).toContain('aria-label="Link to the section “Part”"');
    expect(english).toContain('<p class="markdown-alert-title">Warning</p>');
  });

  it('links translations by file name, or by translationKey when the names differ', () => {
    expect(hreflang(page('news/hello.html'))).toEqual([
      'en https://fixture.example/news/hello',
      'de https://fixture.example/de/nachrichten/hello',
      'x-default https://fixture.example/news/hello',
    ]);
    expect(hreflang(page('de/nachrichten/neuigkeit.html'))).toEqual([
      'en https://fixture.example/news/update',
      'de https://fixture.example/de/nachrichten/neuigkeit',
      'x-default https://fixture.example/news/update',
    ]);
    expect(hreflang(page('de/nachrichten/nur-deutsch.html'))).toEqual([]);
  });

  it('writes a feed per locale, of its articles, each page linking its own', () => {
    const german = page('de/news/feed.xml');
    expect(german).toContain('<language>de</language>');
    expect(german).toContain('<link>https://fixture.example/de</link>');
    expect(german).toContain('<link>https://fixture.example/de/nachrichten/nur-deutsch</link>');
    expect(german).not.toContain('Only English');
    expect(page('news/feed.xml')).toContain('<link>https://fixture.example/news/only-english</link>');
    expect(page('news/feed.xml')).not.toContain('Nur Deutsch');
    expect(page('de/news.html')).toContain('title="Neuigkeiten" href="/de/news/feed.xml"');
    expect(page('news.html')).toContain('title="News" href="/news/feed.xml"');
    expect(JSON.parse(page('de/news/feed.json')).language).toBe('de');
  });

  it("makes each locale's tag pages from its own articles", () => {
    expect(page('news/tags/staking.html')).toContain('<h1>staking</h1>');
    expect(page('de/news/tags/wien.html')).toContain('<h1>wien</h1>');
    expect(existsSync(site.file('dist/news/tags/wien.html'))).toBe(false);
    expect(hreflang(page('news/tags/staking.html'))).toEqual([
      'en https://fixture.example/news/tags/staking',
      'de https://fixture.example/de/news/tags/staking',
      'x-default https://fixture.example/news/tags/staking',
    ]);
  });

  it('warns of nothing when every locale has its strings and articles', () => {
    expect(stderr).not.toMatch(/content\/strings/);
  });
});

describe('mistakes in the strings and locales', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture, ['dist', 'node_modules', '.cache']);
    await writeContentSite(site);
  }, 60_000);
  afterAll(() => site?.dispose());

  it('warns of a key missing in one locale, naming file and key, and shows the default text', async () => {
    await site.write('content/strings/de.yaml', 'nav:\n  language: Sprache\nnews:\n  title: Neuigkeiten\n');
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'content/strings/de.yaml: no "news.count" (content/strings/en.yaml has it), so de pages show the en text there.',
    );
    expect(readFileSync(site.file('dist/de/news.html'), 'utf8')).toContain('3 articles');
  }, 60_000);

  it('stops the build on it with strict, and on a key no file has', async () => {
    await site.write(
      'site/index.tsx',
      CONTENT_SITE.replace("defaultLocale: 'en' }", "defaultLocale: 'en', strict: true }"),
    );
    const strict = await site.run(['build']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('StringsIncomplete');
    expect(strict.stderr).toContain('no "news.count"');
    await site.write(
      'content/strings/de.yaml',
      'nav:\n  language: Sprache\nnews:\n  title: Neuigkeiten\n  count: "{count} Artikel"\n',
    );
    await site.write('site/index.tsx', CONTENT_SITE.replace("t('news.title')}</h1>", "t('news.titel')}</h1>"));
    const unknown = await site.run(['build']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'The page /news: t("news.titel") on a page in en: no strings file has "news.titel" (content/strings/en.yaml); did you mean news.title?',
    );
  }, 90_000);

  it("names the site code's mistake, not two translations of one name read without its locales", async () => {
    await site.write('site/index.tsx', CONTENT_SITE.replace('  layout: Layout,', '  layout: Layout,\n  routez: 1,'));
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SiteOptionUnknown');
    expect(result.stderr).not.toContain('ArticleSlugDuplicate');
  }, 60_000);

  it("warns of a folder that looks like a locale's but is none of the site's", async () => {
    await site.write('site/index.tsx', CONTENT_SITE);
    await site.write('content/news/fr/salut.md', article('Salut'));
    await site.write('content/news/DE/gross.md', article('Groß'));
    const result = await site.run(['build']);
    await site.remove('content/news/fr');
    await site.remove('content/news/DE');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'content/news/fr looks like the folder of a locale (French), but fr is not in i18n.locales (en, de), so its articles are published as en; add fr to i18n.locales, or rename the folder.',
    );
    expect(result.stderr).toContain(
      'content/news/DE: the locale is written de in i18n.locales, so its articles are published as en; rename the folder de.',
    );
  }, 60_000);

  it('refuses content/strings.yaml beside the strings of a site with i18n, naming it', async () => {
    await site.write('content/strings.yaml', 'a: b\n');
    const result = await site.run(['build']);
    await site.remove('content/strings.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('StringsInvalid');
    expect(result.stderr).toContain('content/strings.yaml has the name of the site');
  }, 60_000);

  it('reads each value of a strings file as written (1.10, yes, 007), and refuses a key given twice', async () => {
    const en = 'nav:\n  language: yes\nnews:\n  title: 1.10\n  count: 007 {count}\n';
    await site.write('content/strings/en.yaml', en);
    const written = await site.run(['build']);
    expect(written.code, written.stderr).toBe(0);
    const list = readFileSync(site.file('dist/news.html'), 'utf8');
    expect(list).toContain('<h1>1.10</h1>');
    expect(list).toContain('aria-label="yes"');
    await site.write('content/strings/en.yaml', `${en}nav.language: Language\n`);
    const twice = await site.run(['build']);
    await site.write(
      'content/strings/en.yaml',
      'nav:\n  language: Language\nnews:\n  title: News\n  count: "{count} articles"\n',
    );
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('StringsInvalid');
    expect(twice.stderr).toContain('content/strings/en.yaml');
    expect(twice.stderr).toContain('nav.language is given twice (as a dotted key and inside a map of keys)');
  }, 60_000);

  it('warns that nothing answers at / with every locale in a folder, until / redirects', async () => {
    const prefixed = CONTENT_SITE.replace("defaultLocale: 'en' }", "defaultLocale: 'en', prefixDefaultLocale: true }");
    await site.write('site/index.tsx', prefixed);
    const bare = await site.run(['build']);
    expect(bare.code, bare.stderr).toBe(0);
    expect(existsSync(site.file('dist/en/news.html'))).toBe(true);
    expect(bare.stderr).toContain(
      "site/index.tsx: with i18n.prefixDefaultLocale no page is written at /, so a visitor at the site's address finds none; add redirects: { '/': { destination: '/en', status: 302 } } to defineSite.",
    );
    await site.write(
      'site/index.tsx',
      prefixed.replace(
        '  layout: Layout,',
        "  layout: Layout,\n  redirects: { '/': { destination: '/en/news', status: 302 } },",
      ),
    );
    const redirected = await site.run(['build']);
    await site.write('site/index.tsx', CONTENT_SITE);
    expect(redirected.code, redirected.stderr).toBe(0);
    expect(redirected.stderr).not.toContain('prefixDefaultLocale');
    expect(readFileSync(site.file('dist/index.html'), 'utf8')).toContain('/en/news');
  }, 90_000);

  it('refuses an article route that hands the article under another name, naming it', async () => {
    await site.write(
      'site/index.tsx',
      CONTENT_SITE.replace('props: { article } }', 'props: { post: article } }').replace(
        'entry.article.title}</h1><div dangerouslySetInnerHTML={{ __html: entry.article.html }}',
        'String(entry.post)}</h1><div',
      ),
    );
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Route /news/:slug hands each page its article as props.post: with i18n, name it props.article',
    );
    await site.write('site/index.tsx', CONTENT_SITE);
  }, 60_000);

  it('warns of a locale with neither strings nor articles', async () => {
    await site.write('site/index.tsx', CONTENT_SITE.replace("locales: ['en', 'de']", "locales: ['en', 'de', 'fr']"));
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'i18n.locales lists fr, but no content/strings/fr.yaml and no article in fr exists; add them, or remove fr.',
    );
  }, 60_000);

  it('refuses two articles of one locale with one key, naming both', async () => {
    await site.write('site/index.tsx', CONTENT_SITE);
    await site.write('content/news/de/zweite.md', article('Zweite', 'translationKey: update\n'));
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TranslationKeyDuplicate');
    expect(result.stderr).toContain(
      '/de/nachrichten/zweite (content/news/de/zweite.md) and /de/nachrichten/neuigkeit (content/news/de/neuigkeit.md)',
    );
    await site.remove('content/news/de/zweite.md');
  }, 60_000);

  it("with a fallback, lists the fallback locale's untranslated articles, their canonical the original", async () => {
    await site.write(
      'site/index.tsx',
      CONTENT_SITE.replace("defaultLocale: 'en' }", "defaultLocale: 'en', fallback: { de: 'en' } }"),
    );
    // A link to another article leads where it leads from the original: hello's German page is not this text's.
    await site.write(
      'content/news/only-english.md',
      article('Only English', '', 'See [hello](hello.md) & [update](update.md#top).'),
    );
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    const file = (name: string) => readFileSync(site.file(`dist/${name}`), 'utf8');
    expect(file('de/news.html')).toContain(
      '<li lang="en"><a href="/de/nachrichten/only-english">Only English</a></li>',
    );
    // Translated articles are listed once, in German.
    expect(file('de/news.html')).not.toContain('>Hello<');
    const fallback = file('de/nachrichten/only-english.html');
    expect(fallback).toContain('<link rel="canonical" href="https://fixture.example/news/only-english">');
    expect(fallback).not.toContain('hreflang=');
    expect(fallback).toContain('<a href="/news/hello">hello</a>');
    expect(fallback).toContain('<a href="/news/update#top">update</a>');
    expect(file('news/only-english.html')).not.toContain('hreflang=');
    expect(file('sitemap.xml')).not.toContain('/de/nachrichten/only-english');
    expect(file('de/news/feed.xml')).not.toContain('Only English');
  }, 60_000);
});

describe('a site in two languages, built again with .cache and the output kept', () => {
  async function distBytes(site: TempSite): Promise<Map<string, Buffer>> {
    const files = await listFiles(site.file('dist'));
    return new Map(files.map((file) => [file, readFileSync(site.file(`dist/${file}`))]));
  }
  async function built(site: TempSite): Promise<Map<string, Buffer>> {
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    return distBytes(site);
  }
  const edits: Record<string, (site: TempSite) => Promise<void>> = {
    'translate only-english': (site) =>
      site.write('content/news/de/only-english.md', article('Nicht mehr nur Englisch')),
    'untranslate only-english': (site) => site.remove('content/news/de/only-english.md'),
    'rename a German word': (site) =>
      site.write(
        'content/strings/de.yaml',
        'nav:\n  language: Sprachen\nnews:\n  title: Aktuelles\n  count: "{count} Beiträge"\n',
      ),
    'retitle the German hello': (site) =>
      site.write('content/news/de/hello.md', article('Servus', 'tags: [staking, wien]\n')),
    // Its own key: no longer the translation of update.md.
    'unlink neuigkeit': (site) =>
      site.write('content/news/de/neuigkeit.md', article('Neuigkeit', 'translationKey: neuigkeit\n')),
    'remove the German hello': (site) => site.remove('content/news/de/hello.md'),
  };

  it('property: after any sequence of edits of translations and words, each build is a cold build', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...Object.keys(edits)), { minLength: 1, maxLength: 3 }),
        async (names) => {
          const site = await copySite(fixture, ['dist', 'node_modules', '.cache']);
          try {
            await writeContentSite(site);
            await built(site);
            for (const name of names) {
              await edits[name]!(site);
              const incremental = await built(site);
              const cold = await copySite(site.dir, ['dist', 'node_modules', '.cache']);
              try {
                const expected = await built(cold);
                expect([...incremental.keys()].sort(), name).toEqual([...expected.keys()].sort());
                for (const [file, bytes] of expected)
                  expect(incremental.get(file)!.equals(bytes), `${names.join(' → ')}: ${file}`).toBe(true);
              } finally {
                await cold.dispose();
              }
            }
          } finally {
            await site.dispose();
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 300_000);
});

describe('a site in two languages in dev', () => {
  const state = devSite(fixture, (site) => writeContentSite(site));
  const page = (file: string) => readFileSync(state.site.file(`.cache/ssg/dev/${file}`), 'utf8');

  it("renders a locale's pages again when its article or words change, and the other locale's as they were", async () => {
    const english = page('news/hello.html');
    await state.site.write('content/news/de/hello.md', article('Servus', 'tags: [staking, wien]\n'));
    await state.dev.update([state.site.file('content/news/de/hello.md')]);
    expect(page('de/nachrichten/hello.html')).toContain('<h1>Servus</h1>');
    expect(page('de/news.html')).toContain('>Servus</a>');
    expect(page('news/hello.html')).toBe(english);
    await state.site.write(
      'content/strings/de.yaml',
      'nav:\n  language: Sprache\nnews:\n  title: Aktuelles\n  count: "{count} Artikel"\n',
    );
    await state.dev.update([state.site.file('content/strings/de.yaml')]);
    expect(page('de/news.html')).toContain('<h1>Aktuelles</h1>');
    expect(page('news.html')).toContain('<h1>News</h1>');
    // A new translation: both pages name each other.
    await state.site.write('content/news/de/only-english.md', article('Nicht mehr nur Englisch'));
    await state.dev.update([state.site.file('content/news/de/only-english.md')]);
    expect(page('news/only-english.html')).toContain(
      'hreflang="de" href="https://fixture.example/de/nachrichten/only-english"',
    );
  }, 60_000);
});
