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
import NewsSearch, { type SearchWords } from '../islands/news-search.tsx';
import { dayOf } from '../dates.ts';
import { otherLocale } from '../locales.ts';

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
export function newsListOf(props: Pick<NewsProps, 'collections' | 'entry' | 'localePath'>) {
  const news = props.collections.news;
  const byEntry = lists.get(news) ?? lists.set(news, new WeakMap()).get(news)!;
  if (!byEntry.has(props.entry)) byEntry.set(props.entry, listOf(props));
  return byEntry.get(props.entry);
}

function listOf(props: Pick<NewsProps, 'collections' | 'entry' | 'localePath'>) {
  const { tag, page = 1 } = props.entry as NewsListEntry;
  const news = props.collections.news;
  const group = tag === undefined ? undefined : tagGroup(news, tag);
  if (tag !== undefined && !group) return undefined;
  const base = props.localePath(group ? tagPath(group.slug) : '/news');
  const shown = listPage(group ? group.articles : news, NEWS_PAGE_SIZE, base, page);
  return shown && { tagName: group?.name, page: shown };
}

/** What a page of the news receives: the site's data and its collections. */
type NewsProps = PageProps<SiteData, Record<string, unknown>, Collections>;

/** The search box's words in the page's language; `{query}`, `{count}` and `{shown}` are the box's to fill in. */
function searchWords(t: NewsProps['t']): SearchWords {
  const kept = { query: '{query}', count: '{count}', shown: '{shown}' };
  const key = (name: keyof SearchWords) => t(`news.search.${name}`, kept);
  return {
    results: key('results'),
    unavailable: key('unavailable'),
    none: key('none'),
    one: key('one'),
    many: key('many'),
    firstShown: key('firstShown'),
  };
}

export function NewsList(props: NewsProps) {
  const { t, localePath, locale } = props;
  const list = newsListOf(props);
  const brand = props.data.site.brand;
  if (!list) return <NotFound t={t} localePath={localePath} text={t('notFound.page')} />;
  const title = list.tagName ? t('news.tagged', { tag: list.tagName }) : t('news.title');
  const intro = list.tagName
    ? t('news.introTagged', { brand, tag: list.tagName, page: '' })
    : t('news.intro', { brand, page: '' });
  return (
    <>
      <PageHeader
        eyebrow={
          list.page.number > 1
            ? t('news.eyebrowPage', { number: list.page.number, total: list.page.total })
            : t('news.eyebrow')
        }
        title={title}
        intro={intro}
      />
      <Section>
        {/* The search box on the list's own page: the one route whose policy lets Pagefind run (site/index.tsx). */}
        {props.path === localePath('/news') && list.page.items.length > 0 && (
          <NewsSearch
            bundle={SEARCH_BUNDLE_URL}
            {...(otherLocale(locale)
              ? { label: t('news.search.label'), placeholder: t('news.search.placeholder'), words: searchWords(t) }
              : {})}
          />
        )}
        {list.page.items.length === 0 ? (
          <p>{t('news.empty')}</p>
        ) : (
          <ul className="news-list">
            {list.page.items.map((article) => (
              <li key={article.slug}>
                <a className="card news-card" href={localePath(`/news/${article.slug}`)}>
                  <LocalDate date={article.date} locale={otherLocale(locale)} />
                  <h2>{article.title}</h2>
                  {article.excerptHtml && <p dangerouslySetInnerHTML={{ __html: article.excerptHtml }} />}
                </a>
                <TagLinks tags={article.tags} t={t} localePath={localePath} />
              </li>
            ))}
          </ul>
        )}
        <Pagination page={list.page} t={t} />
      </Section>
    </>
  );
}

/** The article's tags as links to their pages; nothing when it has none. */
export function TagLinks({ tags, t, localePath }: { tags?: readonly string[] } & Pick<PageProps, 't' | 'localePath'>) {
  const unique = [...new Map((tags ?? []).map((tag) => [tagSlug(tag), tag.trim()])).entries()];
  if (unique.length === 0) return null;
  return (
    <ul className="tag-list" aria-label={t('news.tags')} data-pagefind-ignore="">
      {unique.map(([slug, name]) => (
        <li key={slug}>
          <a className="tag" href={localePath(tagPath(slug))}>
            {name}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Pagination({ page, t }: { page: ListPage<ArticleData>; t: PageProps['t'] }) {
  if (page.total <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('news.pages')}>
      {page.prev ? (
        <a className="button button-secondary" href={page.prev} rel="prev">
          {t('news.newer')}
        </a>
      ) : (
        <span />
      )}
      <span className="pagination-position">{t('news.position', { number: page.number, total: page.total })}</span>
      {page.next ? (
        <a className="button button-secondary" href={page.next} rel="next">
          {t('news.older')}
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

export function ArticlePage({ entry, locale, localePath, t }: PageProps<SiteData>) {
  const article = articleOf(entry);
  if (!article) return <NotFound t={t} localePath={localePath} text={t('notFound.article')} />;
  return (
    <article className="article" data-pagefind-body="">
      <header className="page-header">
        <div className="container container-narrow">
          {/* The search indexes the title, the excerpt and the body (data-pagefind-body), not the rest. */}
          <p className="eyebrow" data-pagefind-ignore="">
            <a href={localePath('/news')}>{t('nav.news')}</a> ·{' '}
            <LocalDate date={article.date} locale={otherLocale(locale)} />
          </p>
          <h1>{article.title}</h1>
          {article.excerptHtml && <p className="lead" dangerouslySetInnerHTML={{ __html: article.excerptHtml }} />}
          <ArticleFacts article={article} locale={locale} t={t} />
          <TagLinks tags={article.tags} t={t} localePath={localePath} />
        </div>
      </header>
      <div className="section">
        <div className="container container-narrow">
          <TableOfContents headings={article.headings} title={t('news.contents')} />
          <div className="prose" dangerouslySetInnerHTML={{ __html: article.html }} />
        </div>
      </div>
    </article>
  );
}

/** Whether two dates fall on different days, as their authors wrote them, so that "Updated" says something. */
const differentDay = (a: string, b: string) => dayOf(a) !== dayOf(b);

/** Who wrote the article, how long it takes to read, and when it was last updated. */
function ArticleFacts({ article, locale, t }: { article: ArticleData } & Pick<PageProps, 'locale' | 't'>) {
  const facts = [
    article.author && <span key="author">{t('news.by', { author: article.author })}</span>,
    article.readingTime > 0 && <span key="time">{t('news.readingTime', { minutes: article.readingTime })}</span>,
    article.updated && differentDay(article.updated, article.date) && (
      <span key="updated">
        {t('news.updated')} <LocalDate date={article.updated} locale={otherLocale(locale)} />
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
export function TableOfContents({ headings, title }: { headings: ArticleData['headings']; title: string }) {
  const sections: Array<{ id: string; text: string; children: Array<{ id: string; text: string }> }> = [];
  for (const heading of headings) {
    if (heading.depth === 2) sections.push({ id: heading.id, text: heading.text, children: [] });
    else if (heading.depth === 3 && sections.length > 0)
      sections[sections.length - 1]!.children.push({ id: heading.id, text: heading.text });
  }
  if (sections.length < CONTENTS_FROM) return null;
  return (
    <nav className="toc" aria-label={title} data-pagefind-ignore="">
      <h2 className="toc-title">{title}</h2>
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

export function NotFound({ text, t, localePath }: { text: string } & Pick<PageProps, 't' | 'localePath'>) {
  return (
    <section className="not-found">
      <div className="container">
        <p className="eyebrow">{t('notFound.eyebrow')}</p>
        <h1>{t('notFound.title')}</h1>
        <p className="lead">{text}</p>
        <p className="button-row">
          <a className="button" href={localePath('/')}>
            {t('notFound.home')}
          </a>
          <a className="button button-secondary" href={localePath('/news')}>
            {t('notFound.news')}
          </a>
        </p>
      </div>
    </section>
  );
}
