import type { ReactNode } from 'react';
import { defineRoute, defineSite, type Article, type PageProps } from 'ssg';
import Counter from './islands/counter.tsx';

function Layout({ children }: PageProps & { children: ReactNode }) {
  return (
    <>
      <header>
        <a href="/">My site</a>
      </header>
      <main>{children}</main>
    </>
  );
}

function Home({ articles }: PageProps) {
  return (
    <>
      <h1>Welcome</h1>
      <Counter start={0} />
      <h2>News</h2>
      <ul>
        {articles.map((article) => (
          <li key={article.slug}>
            <a href={`/news/${article.slug}`}>{article.title}</a>
          </li>
        ))}
      </ul>
    </>
  );
}

function ArticlePage({ entry: { article } }: PageProps<Record<string, unknown>, { article: Article }>) {
  return (
    <article>
      <h1>{article.title}</h1>
      <time dateTime={article.date}>{article.date}</time>
      <div dangerouslySetInnerHTML={{ __html: article.html }} />
    </article>
  );
}

function NotFound() {
  return <h1>Page not found</h1>;
}

export default defineSite({
  layout: Layout,
  routes: [
    { path: '/', page: Home, head: () => ({ title: 'My site', description: 'A site made with ssg.' }) },
    defineRoute({
      path: '/news/:slug',
      entries: ({ articles }) => articles.map((article) => ({ params: { slug: article.slug }, props: { article } })),
      page: ArticlePage,
      head: ({ entry }) => ({ title: entry.article.title, description: entry.article.excerpt }),
    }),
    { path: '/404', page: NotFound, head: () => ({ title: 'Page not found' }) },
  ],
});
