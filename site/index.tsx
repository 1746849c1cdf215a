import { defineSite, type PageProps } from 'ssg';
import { exampleFields, schemas, type SiteData } from './content.ts';
import { Layout } from './components/layout.tsx';
import { About } from './pages/about.tsx';
import { Contact, ContactWithoutScript } from './pages/contact.tsx';
import { Home } from './pages/home.tsx';
import { Legal } from './pages/legal.tsx';
import { Networks } from './pages/networks.tsx';
import { ArticlePage, articleOf, NewsList, NotFound } from './pages/news.tsx';
import { Services } from './pages/services.tsx';
import { newsArticle, organization, SHARE_IMAGE, securityHeaders, siteMeta } from './seo.ts';

const titled = (title: string) => (props: PageProps<SiteData>) => ({
  title: `${title} | ${props.data.site.brand}`,
  description: props.data.site.description,
});

// The route table: one entry per route of the spec, plus the pages a static host shows for
// unknown paths.
export default defineSite<SiteData>({
  layout: Layout,
  schemas,
  meta: siteMeta,
  // Raster images the pages show, processed by the build (SVG team photos are shown as they are).
  images: ({ team }) => [...team.map((member) => member.photo), SHARE_IMAGE],
  headers: securityHeaders,
  feed: ({ site }) => ({
    path: '/news/feed.xml',
    title: `News from ${site.brand}`,
    description: `Updates from ${site.brand}.`,
    link: (article) => `/news/${article.slug}`,
  }),
  check(data, warn) {
    const fields = exampleFields(data);
    if (fields.length > 0) {
      warn(`${fields.length} fields still hold example values; replace them before going live:\n  ${fields.join('\n  ')}`);
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
        description: 'Validator operations, non-custodial staking, monitoring and reporting, and infrastructure advisory.',
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
      head: ({ data }) => ({
        title: `Message not sent | ${data.site.brand}`,
        description: `The contact form needs JavaScript; e-mail ${data.site.brand} instead.`,
      }),
    },
    {
      path: '/news',
      page: NewsList,
      head: ({ data }) => ({ title: `News | ${data.site.brand}`, description: `Updates from ${data.site.brand}.` }),
    },
    {
      path: '/news/:slug',
      page: ArticlePage,
      entries: ({ articles }) => articles.map((article) => ({ params: { slug: article.slug }, props: { article } })),
      head: ({ entry, data, baseUrl }) => {
        const article = articleOf(entry);
        return {
          title: `${article?.title ?? 'Not found'} | ${data.site.brand}`,
          description: article?.excerpt || data.site.description,
          type: 'article',
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
