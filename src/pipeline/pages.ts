// The pipeline's page stages: the routes expanded into pages, then each page rendered as soon as
// the articles it was handed are ready, or taken as it was made before when the strategy's page
// source says nothing it reads changed (build: the page cache; dev: what each page read).
import { CONVERTED_FIELDS, type Article } from '../content/article.ts';
import {
  dependsOnArticles,
  emptyReads,
  isTracked,
  mapArticlesIn,
  trackReads,
  untracked,
  type PageReads,
} from '../render/dependencies.ts';
import { pageLinks, type PageLinks } from '../render/links.ts';
import { renderDocument, type RenderContext } from '../render/render.ts';
import { expandRoutes, type PageJob } from '../render/routes.ts';
import { siteLists } from '../render/collections-view.ts';
import { localesOf, localeView } from '../render/i18n.ts';
import { groupByTag } from '../content/tags.ts';
import type { SiteDefinition } from '../render/site-definition.ts';
import type { Conversion, Inputs, Output, PageSource, RenderedPage, State } from './pipeline-types.ts';
import { outputHash } from '../output/output-file.ts';
import { entryArticles, sourceFileOf } from './publish.ts';

/** Whether what `reads` noted (of a route table's entries, of the drawn files) may read otherwise now. */
export function readsChanged(reads: PageReads, inputs: Inputs): boolean {
  if ([...reads.dataKeys].some((key) => inputs.changedData.has(key))) return true;
  return dependsOnArticles(reads, { listChanged: inputs.listChanged, fields: inputs.fields });
}

/**
 * Route entries may carry article objects; after an edit that kept the list as it was, hand each
 * page the new object in place of the old one instead of expanding every route again.
 */
function withReplacedArticles(jobs: PageJob[], before: readonly Article[], after: readonly Article[]): PageJob[] {
  const replaced = new Map<unknown, Article>();
  before.forEach((article, index) => article !== after[index] && replaced.set(article, after[index]!));
  if (replaced.size === 0) return jobs;
  // Any article ends the walk (kept, or replaced), so the walk never goes through an article's own fields.
  const known = new Set<unknown>(before);
  return jobs.map((job) => {
    // Also inside the lists and objects an entry holds (a tag's group of articles).
    const entry = mapArticlesIn(
      job.entry,
      (value) => known.has(value),
      (article) => replaced.get(article) ?? article,
    ) as PageJob['entry'];
    return entry === job.entry ? job : { ...job, entry };
  });
}

/**
 * Every page of the site, and what the routes' entries() read to list them: the routes are
 * expanded again only when that changed. The entries hold the articles, not the tracking proxies.
 */
function expandTracked(
  site: SiteDefinition<Record<string, unknown>>,
  { articles, data, collections }: Pick<Inputs, 'articles' | 'collections'> & { data: Record<string, unknown> },
) {
  const reads = emptyReads();
  // A tag with no URL stops the build here, naming its file, whichever collection it is in.
  groupByTag(articles);
  const tracked = trackReads(articles, data, reads);
  const lists = siteLists(collections, tracked, tracked.data);
  const context = {
    get articles() {
      return lists.articles;
    },
    data: tracked.data,
    collections: lists.collections,
  };
  // Also inside the lists and objects an entry holds: a page reading a tag group's articles
  // records what it read as its own reads, not the route table's.
  const i18n = localesOf(site);
  const listsIn = (locale: string) => {
    const inLocale = siteLists(collections, tracked, tracked.data, i18n && localeView(i18n, locale));
    return {
      get articles() {
        return inLocale.articles;
      },
      collections: inLocale.collections,
    };
  };
  const jobs = expandRoutes(site, context, listsIn).map((job) => ({
    ...job,
    entry: mapArticlesIn(job.entry, isTracked, untracked) as PageJob['entry'],
  }));
  return { jobs, routeReads: reads };
}

/** The pipeline's route stage: every page, expanded again when what entries() read may have changed. */
export function expandPages(previous: State | undefined, inputs: Inputs): Pick<State, 'jobs' | 'routeReads'> {
  // entries() may read any field of an article (tag pages read its tags).
  if (!previous || inputs.renderAll || readsChanged(previous.routeReads, inputs)) {
    return expandTracked(inputs.server.module.site, { ...inputs, data: inputs.settings.data });
  }
  return {
    jobs: withReplacedArticles(previous.jobs, previous.articles, inputs.articles),
    routeReads: previous.routeReads,
  };
}

/**
 * Pages that were handed their articles render as soon as those are ready; every other page (a
 * list may read any article) once all are, unless `madeNow` could make it as it was at once.
 */
async function renderAsConverted(
  jobs: readonly PageJob[],
  known: ReadonlySet<Article>,
  conversion: Conversion,
  render: (job: PageJob) => void,
  madeNow: (job: PageJob) => boolean,
): Promise<void> {
  const isReady = (job: PageJob) => entryArticles(job, known).every((article) => conversion.ready.has(article));
  const waitingOn = new Map<Article, PageJob[]>();
  const later: PageJob[] = [];
  for (const job of jobs) {
    const needs = entryArticles(job, known);
    if (needs.length === 0) {
      if (!madeNow(job)) later.push(job);
    } else if (isReady(job)) render(job);
    else for (const article of needs) waitingOn.set(article, [...(waitingOn.get(article) ?? []), job]);
  }
  conversion.listen((done) => {
    for (const article of done) {
      for (const job of waitingOn.get(article) ?? []) if (isReady(job)) render(job);
      waitingOn.delete(article);
    }
  });
  await conversion.done;
  // Memory back from the helpers as soon as they have nothing left to draw.
  void conversion.release();
  for (const job of later) render(job);
}

/** Whether a page's entry holds an article anywhere in it (a tag's group of articles, say). */
function holdsArticles(job: PageJob, known: ReadonlySet<Article>): boolean {
  let found = false;
  mapArticlesIn(
    job.entry,
    (value) => known.has(value as Article),
    (article) => ((found = true), article),
  );
  return found;
}

/**
 * What a page is rendered with: its entry and the list with each article as converted so far.
 * The routes were expanded with the articles as listed, before their Markdown was converted.
 */
function convertedView(context: RenderContext, known: ReadonlySet<Article>, conversion: Conversion) {
  let seen = -1;
  let current = context;
  const converted = (article: Article) => conversion.ready.get(article) ?? article;
  return (job: PageJob): { job: PageJob; context: RenderContext } => {
    if (seen !== conversion.ready.size) {
      seen = conversion.ready.size;
      current = { ...context, articles: context.articles.map(converted) };
    }
    const entry = mapArticlesIn(job.entry, (value) => known.has(value as Article), converted) as PageJob['entry'];
    return { job: entry === job.entry ? job : { ...job, entry }, context: current };
  };
}

/**
 * A page rendered now, with its reads, links and hash; undefined when it showed an article not
 * converted yet. Its links come from `linksOf` when its bytes match a page made before (most tag
 * pages after a new article), else from its HTML.
 */
function renderedPage(
  job: PageJob,
  context: RenderContext,
  file: string | undefined,
  valid: (reads: PageReads) => boolean,
  linksOf?: (hash: string) => PageLinks | undefined,
): RenderedPage | undefined {
  const reads = emptyReads();
  const { html, islands } = renderDocument(job, context, reads);
  if (!valid(reads)) return undefined;
  const hash = outputHash(html);
  return { job, html, hash, islands, reads, links: linksOf?.(hash) ?? pageLinks({ path: job.path, html, file }) };
}

/**
 * A page as made before; its HTML (perhaps a getter reading a cache entry) is not touched unless
 * needed, and is rendered again if it cannot be read (an entry damaged or gone since).
 */
function pageAsBefore(
  job: PageJob,
  earlier: NonNullable<ReturnType<PageSource['earlier']>>,
  file: string | undefined,
  context: RenderContext,
): RenderedPage {
  let html: string | undefined;
  const read = () => {
    try {
      html ??= earlier.html;
    } catch {
      html = renderDocument(job, context, emptyReads()).html;
    }
    return html;
  };
  const links = earlier.links ?? pageLinks({ path: job.path, html: read(), file });
  const hash = earlier.hash ?? outputHash(read());
  return Object.defineProperty({ job, hash, islands: earlier.islands, reads: earlier.reads, links }, 'html', {
    get: read,
    enumerable: true,
  }) as RenderedPage;
}

/**
 * The slugs of the listed articles not converted yet, worked out again only as more are: a page
 * that reads another article than those it was handed (a "read next" box with its reading time)
 * may be rendered while that one is still being converted.
 */
function convertingSlugs(known: ReadonlySet<Article>, conversion: Conversion): () => ReadonlySet<string> {
  let seen = -1;
  let slugs: ReadonlySet<string> = new Set();
  return () => {
    if (seen !== conversion.ready.size) {
      seen = conversion.ready.size;
      slugs = new Set([...known].filter((article) => !conversion.ready.has(article)).map((article) => article.file));
    }
    return slugs;
  };
}

/** Whether a page read what an article gets from its conversion, of one not converted yet. */
function readsConverting(reads: PageReads, converting: ReadonlySet<string>): boolean {
  if (converting.size === 0) return false;
  if (CONVERTED_FIELDS.some((field) => reads.listFields.has(field))) return true;
  for (const [slug, fields] of reads.articleFields) {
    if (converting.has(slug) && CONVERTED_FIELDS.some((field) => fields.has(field))) return true;
  }
  return false;
}

/** The page with its HTML let go (the output holds it); reading it is a mistake of the caller's. */
function withoutHtml(page: RenderedPage): RenderedPage {
  const { job, hash, islands, reads, links } = page;
  return Object.defineProperty({ job, hash, islands, reads, links }, 'html', {
    enumerable: false,
    get: () => {
      throw new Error(`the HTML of ${job.path} was let go once written (PageSource.dropsHtml)`);
    },
  }) as RenderedPage;
}

/**
 * The pipeline's page stage: every page made (rendered, or as it was) and handed to the output as
 * soon as it is. A page that fails is remembered, and the first in route order is reported,
 * whatever order the pages were made in. The pages' jobs hold the converted articles.
 */
export async function renderPages(
  jobs: readonly PageJob[],
  context: RenderContext,
  conversion: Conversion,
  source: PageSource,
  output: Output<unknown>,
): Promise<Map<string, RenderedPage>> {
  const known = new Set(context.articles);
  const view = convertedView(context, known, conversion);
  const order = new Map(jobs.map((job, index) => [job, index]));
  const made = new Map<PageJob, RenderedPage>();
  const failures = new Map<number, unknown>();
  const converting = convertingSlugs(known, conversion);
  const valid = (reads: PageReads) => !readsConverting(reads, converting());
  /** Pages that showed what an article gets from its conversion before it had it: made again once all are converted. */
  const again: PageJob[] = [];
  const makeOne = (listed: PageJob, asked?: ReturnType<PageSource['earlier']>) => {
    const { job, context: current } = view(listed);
    const earlier = asked ?? source.earlier(job);
    const file = sourceFileOf(listed, known);
    const page = earlier
      ? pageAsBefore(job, earlier, file, current)
      : renderedPage(job, current, file, valid, source.sameAsBefore && ((hash) => source.sameAsBefore!(job, hash)));
    if (!page) return void again.push(listed);
    // A page as before is carried over from the output folder by its hash, its HTML never read.
    output.write({
      path: job.outputPath,
      hash: page.hash,
      ...(earlier ? { unread: true } : {}),
      get contents() {
        return page.html;
      },
    });
    source.made?.(page, !earlier);
    made.set(listed, source.dropsHtml ? withoutHtml(page) : page);
  };
  const render = (job: PageJob, asked?: ReturnType<PageSource['earlier']>) => {
    if (made.has(job) || failures.has(order.get(job)!)) return;
    try {
      makeOne(job, asked);
    } catch (error) {
      failures.set(order.get(job)!, error);
    }
  };
  /** A page whose entry holds no article, taken as it was while the articles are converted (when the source can tell). */
  const madeNow = (job: PageJob) => {
    if (!source.answersBeforeConversion || holdsArticles(job, known)) return false;
    const earlier = source.earlier(job);
    if (earlier) render(job, earlier);
    return earlier !== undefined;
  };
  await renderAsConverted(jobs, known, conversion, render, madeNow);
  // Every article is converted by now (renderAsConverted waited for them all).
  for (const job of again.splice(0)) render(job);
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return new Map(jobs.map((job) => [job.outputPath, made.get(job)!]));
}
