import type { ReactNode } from 'react';
import { defineCollection, defineRoute, defineSite, SEARCH_BUNDLE_URL, type CollectionsOf, type PageProps } from 'ssg';
import { z } from 'zod';
// The company site's search box, shared through a link to its file (its label and examples are props).
import Search from './islands/news-search.tsx';

// The docs of ssg as a site built by ssg: one content collection, the pages of docs/ as
// scripts/docs-site.ts stages them (a title, a section and an order added to each).
const collections = {
  docs: defineCollection({
    schema: z.object({ section: z.enum(['Guides', 'Reference']), order: z.number().int() }),
  }),
};
type Collections = CollectionsOf<typeof collections>;
type Doc = Collections['docs'][number];
type Props = PageProps<Record<string, unknown>, Record<string, unknown>, Collections>;

/** The home page is docs/index.md, staged as content/docs/index.md: its slug is its folder's. */
const HOME = 'docs';
const pathOf = (doc: Doc) => (doc.slug === HOME ? '/' : `/${doc.slug}`);

function byOrder(docs: readonly Doc[]): Doc[] {
  return [...docs].sort((a, b) => a.data.order - b.data.order || a.title.localeCompare(b.title));
}

function Navigation({ docs, current }: { docs: readonly Doc[]; current: string }) {
  const sections = ['Guides', 'Reference'] as const;
  return (
    <nav className="pages" id="pages" aria-label="Documentation">
      {sections.map((section) => (
        <section key={section}>
          <h2>{section}</h2>
          <ul>
            {byOrder(docs.filter((doc) => doc.data.section === section && doc.slug !== HOME)).map((doc) => (
              <li key={doc.slug}>
                <a href={pathOf(doc)} aria-current={pathOf(doc) === current ? 'page' : undefined}>
                  {doc.title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}

function Layout({ children, collections, path }: Props & { children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#content">
        Skip to the content
      </a>
      <header className="top">
        <a href="/">ssg documentation</a>
        <a className="to-pages" href="#pages">
          All pages
        </a>
      </header>
      <div className="shell">
        <Navigation docs={collections.docs} current={path} />
        <main id="content">
          <Search
            bundle={SEARCH_BUNDLE_URL}
            label="Search the docs"
            placeholder="collections, redirects, deploy…"
            noun={{ one: 'page', many: 'pages' }}
          />
          {children}
        </main>
      </div>
    </>
  );
}

function DocBody({ doc }: { doc: Doc }) {
  // The page's own text is what the search indexes, not the navigation beside it.
  return (
    <article data-pagefind-body="">
      <h1>{doc.title}</h1>
      <div dangerouslySetInnerHTML={{ __html: doc.html }} />
    </article>
  );
}

export default defineSite<Record<string, unknown>, Collections>({
  layout: Layout,
  collections,
  // Every page is indexed and carries the box.
  search: { indexed: ['/', '/:slug'], pages: ['/', '/:slug', '/404'] },
  meta: () => ({ name: 'ssg documentation', description: 'Guides and reference of ssg.', language: 'en' }),
  routes: [
    defineRoute<Record<string, unknown>, Record<string, unknown>, Collections>({
      path: '/',
      page: ({ collections }) => {
        const home = collections.docs.find((doc) => doc.slug === HOME);
        return home ? <DocBody doc={home} /> : <h1>ssg documentation</h1>;
      },
      head: () => ({ title: 'ssg documentation', description: 'Guides and reference of ssg.' }),
    }),
    defineRoute<Record<string, unknown>, { doc: Doc }, Collections>({
      path: '/:slug',
      entries: ({ collections }) =>
        collections.docs
          .filter((doc) => doc.slug !== HOME)
          .map((doc) => ({ params: { slug: doc.slug }, props: { doc } })),
      page: ({ entry }) => <DocBody doc={entry.doc} />,
      head: ({ entry }) => ({ title: `${entry.doc.title} | ssg documentation`, description: entry.doc.excerpt }),
    }),
    { path: '/404', page: () => <h1>Not found</h1>, head: () => ({ title: 'Not found | ssg documentation' }) },
  ],
});
