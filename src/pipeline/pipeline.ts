// The one pipeline: `build` runs it once on everything (full-build.ts), dev again after each save
// on what changed (incremental.ts), so a check added once holds in both. What differs is the
// strategy passed in (bundlers, page reuse, output) and the hooks only one side has, as plain values.
import type { ClientBundle } from '../render/bundles.ts';
import type { OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import { linkSourceFinder } from './link-sources.ts';
import type { PageReads } from '../render/dependencies.ts';
import type { PageJob } from '../render/routes.ts';
import { FEED_LIMIT, feedArticles } from '../render/feeds.ts';
import { generatedFiles, renderContext } from './stages.ts';
import { checkPublicClashes, checkSiteOutput, heldBackPages } from './site-checks.ts';
import { readInputs } from './inputs.ts';
import { expandPages, readsChanged, renderPages } from './pages.ts';
import type { ChangeKind, Inputs, Output, RenderedPage, RunOptions, State, Strategy } from './pipeline-types.ts';
import type { Article } from '../content/article.ts';
import { startFeatures } from './features.ts';

export type * from './pipeline-types.ts';

/** How long each stage took, for `build --verbose`. */
function timer() {
  const timings: Record<string, number> = {};
  let last = performance.now();
  return {
    timings,
    lap(stage: string) {
      const now = performance.now();
      timings[stage] = (timings[stage] ?? 0) + now - last;
      last = now;
    },
  };
}

function assetFiles(client: ClientBundle): OutputFile[] {
  return client.assets.map((asset) => ({ path: asset.path, contents: asset.contents }));
}

/**
 * sitemap, robots, feed, manifest and _headers, made again when what they read may have changed:
 * the sitemap reads the list, the dates and drafts, the feed the newest articles, _headers the style's hash.
 */
function siteFilesFor(
  previous: State | undefined,
  inputs: Inputs,
  jobs: readonly PageJob[],
  site: { now: Date; project: Project; warn: (message: string) => void },
): OutputFile[] {
  const { feeds } = inputs.settings;
  const inFeed = new Set(
    (feeds.length > 0
      ? feeds.flatMap((feed) => feedArticles(feed, inputs.articles))
      : inputs.articles.slice(0, FEED_LIMIT)
    ).map((article) => article.file),
  );
  const regenerate =
    !previous ||
    inputs.renderAll ||
    inputs.listChanged ||
    inputs.changedData.size > 0 ||
    inputs.publicChanged ||
    inputs.styleChanged ||
    [...inputs.fields].some(
      ([file, fields]) => inFeed.has(file) || fields.has('date') || fields.has('data') || fields.has('draft'),
    );
  return regenerate
    ? generatedFiles({ ...inputs, server: inputs.server.module }, jobs, inputs.publicFiles, site)
    : previous.generated;
}

/** Every article as converted, and the jobs as the pages were rendered from them. */
function convertedInputs(inputs: Inputs, listedJobs: readonly PageJob[], pages: ReadonlyMap<string, RenderedPage>) {
  const converted = (article: Article) => inputs.conversion.ready.get(article) ?? article;
  return {
    articles: inputs.articles.map(converted),
    byFile: new Map([...inputs.byFile].map(([file, article]) => [file, converted(article)])),
    jobs: listedJobs.map((job) => pages.get(job.outputPath)!.job),
  };
}

/** The features the site turns on, started for this run from what each made last (the last run's, or the cache's). */
function featuresOfRun(
  project: Project,
  inputs: Inputs,
  {
    jobs,
    previous,
    now,
    warn,
  }: { jobs: readonly PageJob[]; previous: State | undefined; now: Date; warn: RunOptions['warn'] },
  { earlier, ...how }: Strategy<unknown>['features'],
) {
  const { settings } = inputs;
  const input = {
    ...how,
    jobs,
    articles: inputs.articles,
    inlineStyle: inputs.client.inlineStyle,
    now,
    site: { server: inputs.server, collections: inputs.collections, data: settings.data, baseUrl: settings.baseUrl },
    project,
    changed: (reads: PageReads) => !previous || inputs.renderAll || readsChanged(reads, inputs),
    ...(inputs.conversion.draw ? { draw: inputs.conversion.draw } : {}),
    warn,
  };
  return startFeatures(
    inputs.settings.features,
    input,
    (feature) => previous?.featuresMade.get(feature.option)?.made ?? earlier?.(feature),
  );
}

/** What a run made: the new state, what the output reports, and the inputs it read. */
export interface RunResult<Written> {
  state: State;
  written: Written;
  inputs: Inputs;
  timings: Record<string, number>;
}

/** Checks of the whole site: clashes, then every link of every page. */
function checkSite<Written>(
  project: Project,
  strategy: Strategy<Written>,
  options: RunOptions,
  site: {
    inputs: Inputs;
    jobs: PageJob[];
    pages: ReadonlyMap<string, RenderedPage>;
    articles: Article[];
    byFile: ReadonlyMap<string, Article>;
    articleImages: OutputFile[];
    drawn: OutputFile[];
    generated: OutputFile[];
  },
): void {
  const { inputs, jobs, pages, articles, byFile, articleImages, drawn, generated } = site;
  const files = {
    client: inputs.client,
    jobs,
    publicFiles: inputs.publicFiles,
    images: [...inputs.settings.images, ...articleImages],
    drawn,
    generated,
  };
  const pageLinks = [...pages.values()].map((page) => page.links);
  const { memo, ...known } = strategy.links();
  const links = {
    warn: options.warn,
    heldBack: heldBackPages({ byFile, published: articles }, pageLinks),
    locate: linkSourceFinder(project),
    ...known,
  };
  checkSiteOutput(project, files, pageLinks, { feeds: inputs.settings.feeds, memo, links });
}

/** What a run's inputs leave for the next run: all but the change flags and the run's own handles. */
function keptInputs(inputs: Inputs) {
  const {
    renderAll: _r,
    styleChanged: _s,
    listChanged: _l,
    fields: _f,
    changedData: _d,
    publicChanged: _p,
    conversion: _c,
    articleKeys: _k,
    ...kept
  } = inputs;
  return kept;
}

/**
 * Runs every stage, in the one order, from `previous` (nothing: everything is read) and the files
 * that changed. The first failure in this order is reported; nothing is put in place unless all is well.
 */
export async function runPipeline<Written>(
  project: Project,
  strategy: Strategy<Written>,
  previous: State | undefined,
  changes: ReadonlyMap<ChangeKind, readonly string[]>,
  options: RunOptions,
): Promise<RunResult<Written>> {
  const clock = timer();
  const { now } = options;
  // 1. Inputs: template, data files, bundles and articles (converting meanwhile in helper processes).
  const inputs = await readInputs(project, strategy, previous, changes, options);
  let output: Output<Written> | undefined;
  try {
    clock.lap('inputs');
    // 2. Routes: every page of the site, none where a public file is.
    const { jobs: listedJobs, routeReads } = expandPages(previous, inputs);
    checkPublicClashes(inputs.client, listedJobs, inputs.publicFiles, project.publicDir);
    // 3. Output: the assets and the site's images first. The features turned on hear of each page,
    // and start what they make meanwhile (the drawn share cards); a failure ends it in `abort`.
    const run = { jobs: listedJobs, previous, now, warn: options.warn };
    const features = featuresOfRun(project, inputs, run, strategy.features);
    output = features.output(await strategy.openOutput(previous, inputs.publicFiles));
    for (const file of assetFiles(inputs.client)) output.write(file, true);
    for (const file of inputs.settings.images) output.write(file);
    // 4. Pages, each once its articles are converted and their images processed.
    const context = renderContext({ ...inputs, server: inputs.server.module }, now, project.root);
    const pages = await renderPages(listedJobs, context, inputs.conversion, strategy.pages(inputs, previous), output);
    clock.lap('markdown & render');
    // What the features make of the pages (the search index), made meanwhile; in dev, when asked for.
    features.pagesMade(pages);
    // From here on, the articles as converted (the routes were expanded before).
    const { articles, byFile, jobs } = convertedInputs(inputs, listedJobs, pages);
    // The features' files (the drawn share cards); their failures are reported after the pages'.
    const drawn = await features.files();
    clock.lap('drawn files');
    const generated = siteFilesFor(previous, { ...inputs, articles }, jobs, { now, project, warn: options.warn });
    // The feed and sitemap are compressed meanwhile (on libuv's threads): after a new article that
    // was the last thing the build waited for.
    for (const file of generated) if (!file.plain) output.prepare?.(file);
    const articleImages = strategy.articles.images.files(articles);
    // 5. Checks of the whole site: clashes, then every link of every page.
    checkSite(project, strategy, options, { inputs, jobs, pages, articles, byFile, articleImages, drawn, generated });
    // 6. The rest of the files, and the site put in place.
    for (const file of [...articleImages, ...drawn]) output.write(file);
    for (const file of generated) output.write(file, !file.plain);
    clock.lap('checks');
    const written = await output.commit();
    output = undefined;
    clock.lap('write');
    return {
      state: {
        ...keptInputs(inputs),
        articles,
        byFile,
        jobs,
        routeReads,
        pages,
        articleImages,
        generated,
        featuresMade: features.made(),
      },
      written,
      inputs,
      timings: clock.timings,
    };
  } finally {
    // The helpers end; the Markdown cache keeps what they converted, even when a check failed.
    await inputs.conversion.close();
    // What the features had under way ends before the run does (the closed helpers refuse the rest of the drawing).
    await output?.abort();
  }
}
