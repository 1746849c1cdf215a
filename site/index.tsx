import { defineSite, groupByTag, pageCount, type PageProps } from 'ssg';
import { collections, exampleFields, schemas, type Collections, type SiteData } from './content.ts';
import { editor } from './editor.ts';
import { Layout } from './components/layout.tsx';
import { About } from './pages/about.tsx';
import { Contact, ContactWithoutScript } from './pages/contact.tsx';
import { Home } from './pages/home.tsx';
import { Legal } from './pages/legal.tsx';
import { Networks } from './pages/networks.tsx';
import { ArticlePage, articleOf, NEWS_PAGE_SIZE, newsListOf, NewsList, NotFound } from './pages/news.tsx';
import { shareDrawers, shareImageOf, shareImages } from './share-image.tsx';
import { Services } from './pages/services.tsx';
import { newsArticle, organization, SHARE_IMAGE, securityHeaders, siteMeta } from './seo.ts';
import { i18n, siteIn, stringOf } from './locales.ts';

/** A head whose title is a key of content/strings and the site's name, with the site's description. */
const titled = (key: string) => (props: PageProps<SiteData>) => ({
  title: `${props.t(key)} | ${props.data.site.brand}`,
  description: siteIn(props.data.site, props.locale).description,
});

/** A head whose title and description are keys of content/strings, given the site's name as {brand}. */
const described =
  (key: string, values: (data: SiteData) => Record<string, string> = () => ({})) =>
  ({ data, t }: PageProps<SiteData>) => ({
    title: t(`${key}.title`, { brand: data.site.brand }),
    description: t(`${key}.description`, { brand: data.site.brand, ...values(data) }),
  });

/** Pages 2… of a list of `count` articles, as route entries (page 1 is the list's own path). */
function laterPages(count: number) {
  const total = pageCount(count, NEWS_PAGE_SIZE);
  return Array.from({ length: total - 1 }, (_, index) => ({
    params: { page: String(index + 2) },
    props: { page: index + 2 },
  }));
}

/** Title, description and rel prev/next of a page of the news list or of a tag's list. */
function newsListHead(props: PageProps<SiteData, Record<string, unknown>, Collections>) {
  const { t } = props;
  const brand = props.data.site.brand;
  const list = newsListOf(props);
  const topic = list?.tagName ? t('news.tagged', { tag: list.tagName }) : t('news.title');
  const numbered = list && list.page.number > 1 ? ` ${t('news.pageSuffix', { number: list.page.number })}` : '';
  return {
    title: `${topic}${numbered} | ${brand}`,
    description: list?.tagName
      ? t('news.introTagged', { brand, tag: list.tagName, page: numbered })
      : t('news.intro', { brand, page: numbered }),
    prev: list?.page.prev,
    next: list?.page.next,
  };
}

/** ISO 8601 for `article:published_time`; nothing for a date no reader can parse. */
function publishedTime(date: string): string | undefined {
  const time = Date.parse(date);
  return Number.isNaN(time) ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : new Date(time).toISOString();
}

// The route table: one entry per route of the spec, plus the pages a static host shows for
// unknown paths.
export default defineSite<SiteData, Collections>({
  // English at the site's own paths, German below /de; the words in content/strings.
  i18n,
  layout: Layout,
  collections,
  schemas,
  meta: siteMeta,
  // Raster images the pages show, processed by the build (SVG team photos are shown as they are).
  images: ({ team }) => [...team.map((member) => member.photo), SHARE_IMAGE],
  headers: securityHeaders,
  // One feed per language; the German one at /de/news/feed.xml, linking /de/news/<slug>.
  feed: (data, locale) => ({
    path: '/news/feed.xml',
    title: stringOf(data, locale, 'news.feed.title', { brand: data.site.brand }),
    description: stringOf(data, locale, 'news.feed.description', { brand: data.site.brand }),
    collection: 'news',
    link: (article) => `/news/${article.slug}`,
  }),
  files: ({ collections, data, root, warn }) => shareImages(collections.news, data.site.brand, root, warn),
  drawers: shareDrawers,
  // The layout's own ids (components/layout.tsx, header.tsx): an article's "## Main" gets main-1.
  markdown: { reservedIds: ['main', 'site-menu'] },
  editor,
  // Full-text search of the articles (Pagefind), from the box on the news list.
  search: { indexed: ['/news/:slug'], pages: ['/news'] },
  check(data, warn) {
    const fields = data.site.placeholders === 'allowed' ? [] : exampleFields(data);
    if (fields.length > 0) {
      warn(
        `${fields.length} fields of content/*.yaml still hold example values; "npm run placeholders" lists them ("placeholders: allowed" in content/site.yaml silences this)`,
      );
    }
  },
  routes: [
    {
      path: '/',
      page: Home,
      head: ({ data, baseUrl, locale, t }) => ({
        title: t('home.title', { brand: data.site.brand }),
        description: siteIn(data.site, locale).description,
        jsonLd: organization(data.site, baseUrl, siteIn(data.site, locale).description),
      }),
    },
    {
      path: '/about',
      page: About,
      head: described('about'),
    },
    {
      path: '/services',
      page: Services,
      head: described('services'),
    },
    {
      path: '/networks',
      page: Networks,
      head: described('networks', (data) => ({ names: data.networks.map((n) => n.name).join(', ') })),
    },
    {
      path: '/contact',
      page: Contact,
      head: described('contact'),
    },
    {
      // The contact endpoint's answer to a form posted without JavaScript.
      path: '/contact/no-script',
      page: ContactWithoutScript,
      // An answer, not a page to find: kept out of search engines and the sitemap.
      noindex: true,
      head: described('contact.noScript'),
    },
    { path: '/news', page: NewsList, head: newsListHead },
    {
      // Page 2 onwards of the news list, once it passes a page size.
      path: '/news/page/:page',
      page: NewsList,
      entries: ({ collections }) => laterPages(collections.news.length),
      head: newsListHead,
    },
    {
      path: '/news/tags/:tag',
      page: NewsList,
      entries: ({ collections }) =>
        groupByTag(collections.news).map((group) => ({ params: { tag: group.slug }, props: { tag: group.slug } })),
      head: newsListHead,
    },
    {
      path: '/news/tags/:tag/page/:page',
      page: NewsList,
      entries: ({ collections }) =>
        groupByTag(collections.news).flatMap((group) =>
          laterPages(group.articles.length).map(({ params, props }) => ({
            params: { ...params, tag: group.slug },
            props: { ...props, tag: group.slug },
          })),
        ),
      head: newsListHead,
    },
    {
      path: '/news/:slug',
      page: ArticlePage,
      entries: ({ collections }) =>
        collections.news.map((article) => ({ params: { slug: article.slug }, props: { article } })),
      head: ({ entry, data, baseUrl, locale, t }) => {
        const article = articleOf(entry);
        return {
          title: `${article?.title ?? t('notFound.title')} | ${data.site.brand}`,
          description: article?.excerpt || siteIn(data.site, locale).description,
          type: 'article',
          image: article && shareImageOf(article, data.site.brand),
          publishedTime: article && publishedTime(article.date),
          modifiedTime: article?.updated && publishedTime(article.updated),
          canonical: article?.canonical,
          jsonLd: article && newsArticle(article, data.site, baseUrl),
        };
      },
    },
    {
      path: '/legal',
      page: Legal,
      head: described('legal', (data) => ({ company: data.site.legal.companyName })),
    },
    {
      path: '/news/404',
      page: ({ t, localePath }) => <NotFound t={t} localePath={localePath} text={t('notFound.article')} />,
      head: titled('notFound.title'),
    },
    {
      path: '/404',
      page: ({ t, localePath }) => <NotFound t={t} localePath={localePath} text={t('notFound.page')} />,
      head: titled('notFound.title'),
    },
  ],
});
