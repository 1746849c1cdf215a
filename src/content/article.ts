/**
 * A news article as the spec defines it, plus where it came from and its converted body. Never
 * changed once made: converting an article's Markdown makes a new value (`withHtml`).
 */
export interface Article<Fields extends object = {}> {
  /** The collection it belongs to (`news`): the folder below content/ it is in. */
  readonly collection: string;
  readonly slug: string;
  readonly title: string;
  readonly date: string;
  /** The excerpt as plain text (its Markdown's markup removed): a meta description. */
  readonly excerpt: string;
  /** The excerpt as inline HTML (emphasis, code, line breaks; links as their text): a list's or a feed's summary. */
  readonly excerptHtml: string;
  readonly tags?: readonly string[];
  readonly markdown: string;
  /** The body converted to HTML; empty while the Markdown stage has not converted it. */
  readonly html: string;
  /** The whole front matter, for fields beyond the ones above: those of its collection's schema as the schema made them. */
  readonly data: Readonly<Record<string, unknown> & Fields>;
  readonly draft: boolean;
  /** The source file, relative to the project root. */
  readonly file: string;
  /** The line of the file where `markdown` begins (after the front matter). */
  readonly bodyLine?: number;
  /** When it was last changed (`updated`), ISO 8601 as `date` is. */
  readonly updated?: string;
  /** Who wrote it (`author`: a name, or a list of names), as a byline says it: `A`, `A and B`, `A, B and C`. */
  readonly author?: string;
  /** The same names one by one. */
  readonly authors?: readonly string[];
  /** The absolute URL search engines should treat as the original (`canonical`), when it is published elsewhere first. */
  readonly canonical?: string;
  /**
   * Addresses it was published at before (`aliases` as Hugo writes them, `redirect_from` as Jekyll
   * does), each redirected to its page: absolute paths, or paths relative to its page's folder.
   */
  readonly movedFrom?: readonly string[];
  /** Its own share image (`image`, `imageAlt`): the file, relative to the project root, and what it shows. */
  readonly image?: { readonly file: string; readonly alt: string };
  /** Its headings in order, for a table of contents (empty until converted). */
  readonly headings: readonly ArticleHeading[];
  /** Minutes to read it, at 200 words a minute, at least 1 (0 until converted). */
  readonly readingTime: number;
  /**
   * With `i18n`: its language, by its folder (`content/news/de/x.md` is German; a file directly
   * in the collection's folder is in the default locale).
   */
  readonly locale?: string;
  /** With `i18n`: what links it to its translations (`translationKey` in its front matter; its slug by default). */
  readonly translationKey?: string;
}

/** A heading of an article: its level (1–6), its id on the page and its text. */
export interface ArticleHeading {
  readonly depth: number;
  readonly id: string;
  readonly text: string;
}

/** What converting an article's body gives it: its HTML, its headings and its length in words. */
export interface ConvertedBody {
  html: string;
  headings?: readonly ArticleHeading[];
  words?: number;
}

/** Words a minute a reader reads, for the reading time. */
const WORDS_PER_MINUTE = 200;

/** The fields an article gets from its conversion (withHtml): a parsed article has them empty. */
export const CONVERTED_FIELDS: readonly string[] = ['html', 'headings', 'readingTime'];

/** The article with its body converted: a new value, the parsed one left as it was. */
export function withHtml(article: Article, body: ConvertedBody): Article {
  // A parsed article (its html an empty value, never a cache getter that spreading would call).
  return frozenWithHtml({ ...article, ...convertedFields(body) }, body);
}

/** The fields a conversion gives, frozen: its headings and the reading time its words make. */
export function convertedFields({ headings = [], words = 0 }: ConvertedBody) {
  return {
    headings: Object.freeze(headings.map((heading) => Object.freeze({ ...heading }))),
    readingTime: words > 0 ? Math.max(1, Math.ceil(words / WORDS_PER_MINUTE)) : 0,
  };
}

/**
 * The article, frozen, with the body's HTML: a value, or the getter of a cache entry that reads it
 * when a page first shows it (most pages of a build come from the output folder unread).
 */
export function frozenWithHtml(article: Omit<Article, 'html'>, body: ConvertedBody): Article {
  const lazy = Object.getOwnPropertyDescriptor(body, 'html')?.get;
  return Object.freeze(
    Object.defineProperty(
      article,
      'html',
      lazy ? { get: lazy, enumerable: true } : { value: body.html, enumerable: true, writable: false },
    ) as Article,
  );
}

/** Whether a build shows the article: drafts only with `drafts`, future dates only with `future`. */
export function isPublished(article: Article, options: { drafts?: boolean; future?: boolean; now: Date }): boolean {
  if (article.draft && !options.drafts) return false;
  return Boolean(options.future) || !(Date.parse(article.date) > options.now.getTime());
}

/** Newest first; articles with the same date (or unreadable dates) keep a stable order by slug. */
export function sortNewestFirst(articles: readonly Article[]): Article[] {
  // Each date is parsed once, not once per comparison.
  const keyed = articles.map((article) => {
    const time = Date.parse(article.date);
    return { article, time: Number.isNaN(time) ? -Infinity : time };
  });
  keyed.sort(
    (a, b) => b.time - a.time || (a.article.slug < b.article.slug ? -1 : a.article.slug > b.article.slug ? 1 : 0),
  );
  return keyed.map((entry) => entry.article);
}
