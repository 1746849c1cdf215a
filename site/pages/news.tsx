import {
  listPage,
  SEARCH_BUNDLE_URL,
  tagGroup,
  tagSlug,
  type Article as ArticleData,
  type ListPage,
  type PageProps,
} from 'ssg';
import type { Collections, SiteData } from '../content.ts';
import { PageHeader, Section } from '../components/ui.tsx';
import LocalDate from '../islands/local-date.tsx';
import NewsSearch from '../islands/news-search.tsx';
import { dayOf } from '../dates.ts';

/** Articles per page of the news list and of each tag's list (the spec leaves the size to us). */
export const NEWS_PAGE_SIZE = 10;

/** What a list page's route entry says: which tag (none for all news) and which page. */
export interface NewsListEntry {
  tag?: string;
  page?: number;
}

export const tagPath = (slug: string) => `/news/tags/${slug}`;

// A list page's head() and page ask for the same list: worked out once per articles and entry
// (the articles as this page sees them, so what the page read is noted the first time).
const lists = new WeakMap<object, WeakMap<object, ReturnType<typeof listOf>>>();

/** The articles, the tag's name and the page a list page shows, or undefined for a page that does not exist. */
export function newsListOf(props: Pick<NewsProps, 'collections' | 'entry'>) {
  const news = props.collections.news;
  const byEntry = lists.get(news) ?? lists.set(news, new WeakMap()).get(news)!;
  if (!byEntry.has(props.entry)) byEntry.set(props.entry, listOf(props));
  return byEntry.get(props.entry);
}

function listOf(props: Pick<NewsProps, 'collections' | 'entry'>) {
  const { tag, page = 1 } = props.entry as NewsListEntry;
  const news = props.collections.news;
  const group = tag === undefined ? undefined : tagGroup(news, tag);
  if (tag !== undefined && !group) return undefined;
  const base = group ? tagPath(group.slug) : '/news';
  const shown = listPage(group ? group.articles : news, NEWS_PAGE_SIZE, base, page);
  return shown && { tagName: group?.name, page: shown };
}

/** What a page of the news receives: the site's data and its collections. */
type NewsProps = PageProps<SiteData, Record<string, unknown>, Collections>;

export function NewsList(props: NewsProps) {
  const list = newsListOf(props);
  const brand = props.data.site.brand;
  if (!list) return <NotFound text="The page does not exist." />;
  const title = list.tagName ? `News tagged “${list.tagName}”` : 'News';
  const intro = list.tagName ? `Updates from ${brand} about ${list.tagName}.` : `Updates from ${brand}.`;
  return (
    <>
      <PageHeader
        eyebrow={list.page.number > 1 ? `Newsroom · page ${list.page.number} of ${list.page.total}` : 'Newsroom'}
        title={title}
        intro={intro}
      />
      <Section>
        {/* The search box on the list's own page: the one route whose policy lets Pagefind run (site/index.tsx). */}
        {props.path === '/news' && list.page.items.length > 0 && <NewsSearch bundle={SEARCH_BUNDLE_URL} />}
        {list.page.items.length === 0 ? (
          <p>No news yet.</p>
        ) : (
          <ul className="news-list">
            {list.page.items.map((article) => (
              <li key={article.slug}>
                <a className="card news-card" href={`/news/${article.slug}`}>
                  <LocalDate date={article.date} />
                  <h2>{article.title}</h2>
                  {article.excerptHtml && <p dangerouslySetInnerHTML={{ __html: article.excerptHtml }} />}
                </a>
                <TagLinks tags={article.tags} />
              </li>
            ))}
          </ul>
        )}
        <Pagination page={list.page} />
      </Section>
    </>
  );
}

/** The article's tags as links to their pages; nothing when it has none. */
export function TagLinks({ tags }: { tags?: readonly string[] }) {
  const unique = [...new Map((tags ?? []).map((tag) => [tagSlug(tag), tag.trim()])).entries()];
  if (unique.length === 0) return null;
  return (
    <ul className="tag-list" aria-label="Tags" data-pagefind-ignore="">
      {unique.map(([slug, name]) => (
        <li key={slug}>
          <a className="tag" href={tagPath(slug)}>
            {name}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Pagination({ page }: { page: ListPage<ArticleData> }) {
  if (page.total <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      {page.prev ? (
        <a className="button button-secondary" href={page.prev} rel="prev">
          Newer
        </a>
      ) : (
        <span />
      )}
      <span className="pagination-position">
        Page {page.number} of {page.total}
      </span>
      {page.next ? (
        <a className="button button-secondary" href={page.next} rel="next">
          Older
        </a>
      ) : (
        <span />
      )}
    </nav>
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
    <article className="article" data-pagefind-body="">
      <header className="page-header">
        <div className="container container-narrow">
          {/* The search indexes the title, the excerpt and the body (data-pagefind-body), not the rest. */}
          <p className="eyebrow" data-pagefind-ignore="">
            <a href="/news">News</a> · <LocalDate date={article.date} />
          </p>
          <h1>{article.title}</h1>
          {article.excerptHtml && <p className="lead" dangerouslySetInnerHTML={{ __html: article.excerptHtml }} />}
          <ArticleFacts article={article} />
          <TagLinks tags={article.tags} />
        </div>
      </header>
      <div className="section">
        <div className="container container-narrow">
          <TableOfContents headings={article.headings} />
          <div className="prose" dangerouslySetInnerHTML={{ __html: article.html }} />
        </div>
      </div>
    </article>
  );
}

/** Whether two dates fall on different days, as their authors wrote them, so that "Updated" says something. */
const differentDay = (a: string, b: string) => dayOf(a) !== dayOf(b);

/** Who wrote the article, how long it takes to read, and when it was last updated. */
function ArticleFacts({ article }: { article: ArticleData }) {
  const facts = [
    article.author && <span key="author">By {article.author}</span>,
    article.readingTime > 0 && <span key="time">{article.readingTime} min read</span>,
    article.updated && differentDay(article.updated, article.date) && (
      <span key="updated">
        Updated <LocalDate date={article.updated} />
      </span>
    ),
  ].filter(Boolean);
  if (facts.length === 0) return null;
  return (
    <p className="article-facts" data-pagefind-ignore="">
      {facts.flatMap((fact, index) =>
        index === 0
          ? [fact]
          : [
              <span key={`dot-${index}`} aria-hidden="true">
                {' '}
                ·{' '}
              </span>,
              fact,
            ],
      )}
    </p>
  );
}

/** Sections (level 2) that make a table of contents worth showing. */
const CONTENTS_FROM = 3;

/** The article's sections (h2) and their subsections (h3), linked, when it has three or more. */
export function TableOfContents({ headings }: { headings: ArticleData['headings'] }) {
  const sections: Array<{ id: string; text: string; children: Array<{ id: string; text: string }> }> = [];
  for (const heading of headings) {
    if (heading.depth === 2) sections.push({ id: heading.id, text: heading.text, children: [] });
    else if (heading.depth === 3 && sections.length > 0)
      sections[sections.length - 1]!.children.push({ id: heading.id, text: heading.text });
  }
  if (sections.length < CONTENTS_FROM) return null;
  return (
    <nav className="toc" aria-label="Contents" data-pagefind-ignore="">
      <h2 className="toc-title">Contents</h2>
      <ol>
        {sections.map((section) => (
          <li key={section.id}>
            <a href={`#${section.id}`}>{section.text}</a>
            {section.children.length > 0 && (
              <ol>
                {section.children.map((child) => (
                  <li key={child.id}>
                    <a href={`#${child.id}`}>{child.text}</a>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </nav>
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
