import type { Article as ArticleData, PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { PageHeader, Section } from '../components/ui.tsx';
import LocalDate from '../islands/local-date.tsx';

export function NewsList({ articles, data }: PageProps<SiteData>) {
  return (
    <>
      <PageHeader eyebrow="Newsroom" title="News" intro={`Updates from ${data.site.brand}.`} />
      <Section>
        {articles.length === 0 ? (
          <p>No news yet.</p>
        ) : (
          <ul className="news-list">
            {articles.map((article) => (
              <li key={article.slug}>
                <a className="card news-card" href={`/news/${article.slug}`}>
                  <LocalDate date={article.date} />
                  <h2>{article.title}</h2>
                  {article.excerpt && <p>{article.excerpt}</p>}
                </a>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

/** The article the route table hands each /news/:slug page. */
export function articleOf(entry: PageProps['entry']): ArticleData | undefined {
  return entry.article as ArticleData | undefined;
}

export function ArticlePage({ entry }: PageProps<SiteData>) {
  const article = articleOf(entry);
  if (!article) return <NotFound text="The article does not exist." />;
  return (
    <article className="article">
      <header className="page-header">
        <div className="container container-narrow">
          <p className="eyebrow">
            <a href="/news">News</a> · <LocalDate date={article.date} />
          </p>
          <h1>{article.title}</h1>
          {article.excerpt && <p className="lead">{article.excerpt}</p>}
        </div>
      </header>
      <div className="section">
        <div className="container container-narrow prose" dangerouslySetInnerHTML={{ __html: article.html }} />
      </div>
    </article>
  );
}

export function NotFound({ text }: { text: string }) {
  return (
    <section className="not-found">
      <div className="container">
        <p className="eyebrow">Error 404</p>
        <h1>Not found</h1>
        <p className="lead">{text}</p>
        <p className="button-row">
          <a className="button" href="/">
            Go to the home page
          </a>
          <a className="button button-secondary" href="/news">
            All news
          </a>
        </p>
      </div>
    </section>
  );
}
