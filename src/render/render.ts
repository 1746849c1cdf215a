import type { Article } from '../content/article.ts';
import type { ResolvedCollection } from '../content/collections.ts';
import type { ClientBundle, ServerModule } from './bundles.ts';
import { siteLists, untrackedLists, type ListSource } from './collections-view.ts';
import { trackReads, type PageReads } from './dependencies.ts';
import { catalogueError, SsgError } from '../errors/errors.ts';
import { renderHead } from './head.ts';
import { alternateLinks, localesOf, localeView, routeLocalePath, withHtmlLang } from './i18n.ts';
import { translate } from './strings.ts';
import { STRINGS_COLLECTION } from '../content/collections.ts';
import { siteFrame } from '../errors/site-code-error.ts';
import type { PageJob } from './routes.ts';
import type { PageProps, SiteMeta } from './site-definition.ts';
import { fillTemplate, type DocumentShell } from './template.ts';

export interface RenderContext {
  server: ServerModule;
  client: ClientBundle;
  shell: DocumentShell;
  articles: readonly Article[];
  data: Record<string, unknown>;
  collections: readonly ResolvedCollection[];
  baseUrl: string;
  now: Date;
  root: string;
  meta?: SiteMeta;
  /** The site's feeds (one per locale with `i18n`): each page links its own locale's. */
  feeds?: readonly { path: string; title: string; locale?: string }[];
}

export interface RenderedDocument {
  job: PageJob;
  html: string;
  islands: string[];
}

/** The article a page was handed through its route entry, if any. */
const entryArticle = (entry: PageJob['entry']) =>
  Object.values(entry).find(
    (value): value is Article =>
      typeof (value as Article | undefined)?.slug === 'string' && typeof (value as Article).markdown === 'string',
  );

/** Whether the page shows a draft. Read through the tracked entry: dev renders it again when `draft` changes. */
const isDraftPage = (entry: PageJob['entry']) => entryArticle(entry)?.draft === true;

/** A page's own path; a fallback page's, its original's (the article in its own locale). */
const canonicalPath = (job: PageJob) =>
  (job.fallbackFor !== undefined && job.alternates?.find((one) => one.locale === job.fallbackFor)?.path) || job.path;

/** A relative link or image of an article's HTML: no scheme, not absolute, not a fragment only. */
const RELATIVE_URL = /(\s(?:href|src)=")(?![a-z][a-z0-9+.-]*:|\/|#)([^"]*)"/gi;

/**
 * A fallback page's entry, its article's relative links (`other-post`, made from `other-post.md`)
 * leading where they lead from the original's page: the article's own locale's pages, which exist,
 * not this locale's, which may not (its translation has its own slug) or may not be this text's.
 */
function withOriginalLinks(entry: PageJob['entry'], originalPath: string): PageJob['entry'] {
  const article = entry.article as Article | undefined;
  if (typeof article?.html !== 'string') return entry;
  const base = new URL(originalPath, 'http://site.invalid');
  const html = article.html.replace(RELATIVE_URL, (_, before: string, url: string) => {
    const resolved = new URL(url.replaceAll('&#x26;', '&').replaceAll('&amp;', '&'), base);
    return `${before}${(resolved.pathname + resolved.search + resolved.hash).replaceAll('&', '&#x26;')}"`;
  });
  return { ...entry, article: Object.freeze({ ...article, html }) };
}

/** What the page, its layout and its head receive: its place, its entry, the lists and data, its locale. */
function pageProps(
  job: PageJob,
  context: RenderContext,
  inputs: ListSource & Pick<RenderContext, 'data'> & { entry: PageJob['entry'] },
): PageProps {
  const { server } = context;
  const i18n = localesOf(server.site);
  const lists = siteLists(
    context.collections,
    inputs,
    inputs.data,
    i18n && job.locale !== undefined ? localeView(i18n, job.locale) : undefined,
  );
  return {
    path: job.path,
    params: job.params,
    entry: job.fallbackFor === undefined ? inputs.entry : withOriginalLinks(inputs.entry, canonicalPath(job)),
    get articles() {
      return lists.articles;
    },
    data: inputs.data,
    collections: lists.collections,
    baseUrl: context.baseUrl,
    now: context.now,
    ...(job.locale === undefined ? {} : { locale: job.locale }),
    alternates: job.alternates ?? [],
    localePath: (path, locale = job.locale) =>
      i18n && locale ? routeLocalePath(i18n, server.site.routes, path, locale) : path,
    t: (key, values) => {
      if (!i18n || job.locale === undefined)
        throw new Error(`t(${JSON.stringify(key)}) needs i18n in the site's definition (docs/i18n.md).`);
      // Read through the page's data, so the page depends on the strings (dev, the page cache);
      // looked up in the run's own, whose table is made once.
      void inputs.data[STRINGS_COLLECTION];
      return translate(context.data, i18n, job.locale, key, values);
    },
  };
}

/** Renders one page into the shell. With `reads`, records what the page used (dev mode). */
export function renderDocument(job: PageJob, context: RenderContext, reads?: PageReads): RenderedDocument {
  const { server, client, shell } = context;
  const inputs = reads
    ? trackReads(context.articles, context.data, reads, job.entry)
    : { ...untrackedLists(context.articles), data: context.data, entry: job.entry };
  const props = pageProps(job, context, inputs);
  let body: string;
  let islands: string[];
  let eager = false;
  let head;
  try {
    const Layout = server.site.layout;
    const page = server.createElement(job.route.page, props);
    ({
      html: body,
      islands,
      eager,
    } = server.renderPage(Layout ? server.createElement(Layout, { ...props, children: page }) : page));
    head = job.route.head(props);
  } catch (error) {
    // An article's HTML that could not be read from the cache is the build's problem, not the page's.
    if (error instanceof SsgError && error.code === 'CacheEntryChanged') throw error;
    // A string the strings files lack is the strings' mistake, named as such, with the page.
    if (error instanceof SsgError && error.code === 'StringMissing')
      throw catalogueError('StringMissing', ['onPage', job.path, error.message], siteFrame(error, context.root) ?? {});
    const where = siteFrame(error, context.root);
    throw catalogueError(
      'PageRenderFailed',
      [job.path, error instanceof Error ? error.message : String(error)],
      where ?? {},
      { cause: error },
    );
  }
  const unknown = islands.filter((name) => !client.islands.has(name));
  if (unknown.length > 0) {
    throw catalogueError('IslandUnknown', [job.path, unknown[0]!]);
  }
  const assets = client.assetsFor(islands);
  const headHtml = renderHead({
    head,
    // Not found pages and drafts (built with --drafts, to preview) are never to be indexed. An
    // article published first elsewhere names the original (its `canonical`) unless the head says otherwise.
    canonicalUrl:
      job.noindex || isDraftPage(inputs.entry)
        ? undefined
        : (head.canonical ?? entryArticle(inputs.entry)?.canonical ?? context.baseUrl + canonicalPath(job)),
    baseUrl: context.baseUrl,
    meta: context.meta,
    feed: context.feeds?.find((feed) => feed.locale === job.locale),
    styles: assets.css,
    inlineStyle: client.inlineStyle,
    script: islands.length > 0 ? client.loaderUrl : undefined,
    scriptOnInteraction: !eager,
    ...(job.locale === undefined
      ? {}
      : { locale: job.locale, hreflang: alternateLinks(job.hreflang, context.baseUrl) }),
  });
  const inLocale: DocumentShell =
    job.locale === undefined
      ? shell
      : { parts: [withHtmlLang(shell.parts[0], job.locale), shell.parts[1], shell.parts[2]] };
  return { job, html: fillTemplate(inLocale, headHtml, body), islands };
}
