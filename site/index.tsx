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

const titled = (title: string) => (props: PageProps<SiteData>) => ({
  title: `${title} | ${props.data.site.brand}`,
  description: props.data.site.description,
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
  const brand = props.data.site.brand;
  const list = newsListOf(props);
  const topic = list?.tagName ? `News tagged “${list.tagName}”` : 'News';
  const numbered = list && list.page.number > 1 ? ` (page ${list.page.number})` : '';
  return {
    title: `${topic}${numbered} | ${brand}`,
    description: list?.tagName
      ? `Updates from ${brand} about ${list.tagName}${numbered}.`
      : `Updates from ${brand}${numbered}.`,
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
  layout: Layout,
  collections,
  schemas,
  meta: siteMeta,
  // Raster images the pages show, processed by the build (SVG team photos are shown as they are).
  images: ({ team }) => [...team.map((member) => member.photo), SHARE_IMAGE],
  headers: securityHeaders,
  feed: ({ site }) => ({
    path: '/news/feed.xml',
    title: `News from ${site.brand}`,
    description: `Updates from ${site.brand}.`,
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
      head: ({ data, baseUrl }) => ({
        title: `${data.site.brand}: non-custodial staking from Vienna`,
        description: data.site.description,
        jsonLd: organization(data.site, baseUrl),
      }),
    },
    {
      path: '/about',
      page: About,
      head: ({ data }) => ({
        title: `About | ${data.site.brand}`,
        description: `Our mission and the team behind ${data.site.brand}, validating Proof-of-Stake networks since 2022.`,
      }),
    },
    {
      path: '/services',
      page: Services,
      head: ({ data }) => ({
        title: `Services | ${data.site.brand}`,
        description:
          'Validator operations, non-custodial staking, monitoring and reporting, and infrastructure advisory.',
      }),
    },
    {
      path: '/networks',
      page: Networks,
      head: ({ data }) => ({
        title: `Networks | ${data.site.brand}`,
        description: `The Proof-of-Stake networks we validate: ${data.networks.map((n) => n.name).join(', ')}.`,
      }),
    },
    {
      path: '/contact',
      page: Contact,
      head: ({ data }) => ({
        title: `Contact | ${data.site.brand}`,
        description: `Send ${data.site.brand} a message about staking or node infrastructure.`,
      }),
    },
    {
      // The contact endpoint's answer to a form posted without JavaScript.
      path: '/contact/no-script',
      page: ContactWithoutScript,
      // An answer, not a page to find: kept out of search engines and the sitemap.
      noindex: true,
      head: ({ data }) => ({
        title: `Message not sent | ${data.site.brand}`,
        description: `The contact form needs JavaScript; e-mail ${data.site.brand} instead.`,
      }),
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
      head: ({ entry, data, baseUrl }) => {
        const article = articleOf(entry);
        return {
          title: `${article?.title ?? 'Not found'} | ${data.site.brand}`,
          description: article?.excerpt || data.site.description,
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
      head: ({ data }) => ({
        title: `Legal notice | ${data.site.brand}`,
        description: `Company details, terms, liability, copyright and privacy information of ${data.site.legal.companyName}.`,
      }),
    },
    { path: '/news/404', page: () => <NotFound text="The article does not exist." />, head: titled('Not found') },
    { path: '/404', page: () => <NotFound text="The page does not exist." />, head: titled('Not found') },
  ],
});
