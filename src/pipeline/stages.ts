// The stages between reading the inputs and checking the site, shared by `build` and dev mode:
// what pages are rendered with, and the files the site makes besides its pages. Each is a plain
// function of its inputs, so a change here holds in both.
import { createHash } from 'node:crypto';
import type { Article } from '../content/article.ts';
import type { ResolvedCollection } from '../content/collections.ts';
import { siteLists } from '../render/collections-view.ts';
import type { ClientBundle } from '../render/bundles.ts';
import type { ServerBundle, ServerModule } from '../bundle/bundle-server.ts';
import { addCspSources } from '../render/csp.ts';
import { featureFiles, featureHeader } from './features.ts';
import type { DrawMany } from '../content/drawing.ts';
import { generateFiles, type DrawnMemo } from '../render/generated-files.ts';
import { trackReads, type PageReads } from '../render/dependencies.ts';
import type { OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import type { RenderContext } from '../render/render.ts';
import type { PageJob } from '../render/routes.ts';
import type { GeneratedFile } from '../render/site-definition.ts';
import { codeStampOf } from '../bundle/module-code.ts';
import { checkRedirects, declaredRedirects } from '../render/redirects.ts';
import { feedPaths } from '../render/feeds.ts';
import { siteFiles } from '../render/site-files.ts';
import { catalogueError } from '../errors/errors.ts';
import type { DocumentShell } from '../render/template.ts';
import type { SiteSettings } from './site-settings.ts';
import type { DataFile } from '../content/data.ts';

/** What every page is rendered with. */
export function renderContext(
  inputs: {
    server: ServerModule;
    client: ClientBundle;
    shell: DocumentShell;
    articles: readonly Article[];
    collections: readonly ResolvedCollection[];
    settings: SiteSettings;
  },
  now: Date,
  root: string,
): RenderContext {
  const { settings } = inputs;
  return {
    server: inputs.server,
    client: inputs.client,
    shell: inputs.shell,
    articles: inputs.articles,
    data: settings.data,
    collections: inputs.collections,
    baseUrl: settings.baseUrl,
    now,
    root,
    meta: settings.meta,
    feed: settings.feed && { path: settings.feed.path, title: settings.feed.title },
  };
}

/** sitemap, robots, feed, manifest, _headers (those the public folder does not provide) and the features' files (the editor). */
export function generatedFiles(
  inputs: {
    server: ServerModule;
    client: ClientBundle;
    articles: readonly Article[];
    collections: readonly ResolvedCollection[];
    settings: SiteSettings;
    dataSources: ReadonlyMap<string, DataFile>;
  },
  jobs: readonly PageJob[],
  publicFiles: ReadonlySet<string>,
  site: { now: Date; project: Project; warn: (message: string) => void },
): OutputFile[] {
  const { now } = site;
  const { settings } = inputs;
  const declared = declaredRedirects({
    redirects: inputs.server.site.redirects,
    siteFile: 'site/index.tsx',
    articles: inputs.articles,
    pages: jobs,
  });
  if (declared.length > 0 && publicFiles.has('_redirects'))
    throw catalogueError('RedirectInvalid', ['publicFile'], { file: 'site/public/_redirects' });
  const made = [
    'sitemap.xml',
    'robots.txt',
    'manifest.webmanifest',
    ...(settings.feed
      ? Object.values(feedPaths(settings.feed.path)).flatMap((file) => (file ? [file.replace(/^\//, '')] : []))
      : []),
  ];
  const redirects = checkRedirects(declared, {
    pages: new Set(jobs.map((job) => job.path)),
    files: new Set([...publicFiles, ...made]),
    outputs: new Set(jobs.map((job) => job.outputPath)),
  });
  const headers = addCspSources(inputs.server.site.headers?.(settings.data), inputs.client.inlineHashes);
  const features = featureFiles(settings.features, {
    project: site.project,
    baseUrl: settings.baseUrl,
    siteName: settings.meta?.name ?? settings.baseUrl,
    collections: inputs.collections,
    dataSources: [...inputs.dataSources.values()],
    schemas: (inputs.server.site.schemas ?? {}) as Record<string, unknown>,
    headers,
    warn: site.warn,
  });
  const files = siteFiles({
    redirects,
    jobs,
    articles: inputs.articles,
    baseUrl: settings.baseUrl,
    now,
    meta: settings.meta,
    feed: settings.feed,
    headers,
    pathHeader: featureHeader(settings.features, jobs, headers),
    publicFiles,
    folderHeaders: features.folderHeaders,
  });
  return [...files, ...features.files.filter((file) => !publicFiles.has(file.path))];
}

/**
 * The files the site draws (share images), each taken from the cache while its path, its key and
 * the site code are as before. Dev serves them as `build` writes them: pages point at them, and
 * keeps them in `memo` between rebuilds, so an edit reads none of the unchanged ones again.
 */
export function drawnFiles(
  inputs: {
    server: ServerBundle;
    articles: readonly Article[];
    collections: readonly ResolvedCollection[];
    settings: SiteSettings;
  },
  project: Project,
  how: {
    /** What the files were last time, and where to note what files() reads (kept between dev's runs). */
    memo?: { drawn: DrawnMemo; reads: PageReads };
    carries?: (file: string, hash: string) => boolean;
    draw?: DrawMany;
    warn: (message: string) => void;
  },
): Promise<OutputFile[]> {
  const { settings } = inputs;
  const { memo } = how;
  // With a memo (dev), what the site's files() read is noted, to call it again only when that changed.
  const { articles, data } = memo
    ? trackReads(inputs.articles, settings.data, memo.reads)
    : { articles: inputs.articles, data: settings.data };
  return generateFiles(
    inputs.server.module.site,
    {
      ...siteLists(inputs.collections, articles, data),
      data,
      baseUrl: settings.baseUrl,
      root: project.root,
      warn: how.warn,
    },
    {
      cacheDir: project.cacheDir,
      salt: drawingCode(inputs.server),
      memo: memo?.drawn,
      carries: how.carries,
      draw: how.draw,
    },
  );
}

/**
 * The code that draws each file, for its cache key: its drawer's (or render's) module and what
 * that imports, so an edit elsewhere in the site draws nothing again; the whole site's code for a
 * function that cannot be told apart in the bundle.
 */
export function drawingCode(server: ServerBundle): (file: GeneratedFile) => string {
  // By the function's text: each file's render() is a closure of its own, all written in one place.
  const stamps = new Map<string, string>();
  const drawers = server.module.site.drawers ?? {};
  let whole: string | undefined;
  return (file) => {
    const fn = (file.draw ? drawers[file.draw.drawer] : file.render) as (...args: never[]) => unknown;
    const text = Function.prototype.toString.call(fn);
    let stamp = stamps.get(text);
    if (stamp === undefined)
      stamps.set(
        text,
        (stamp = codeStampOf(server, fn) ?? (whole ??= createHash('sha256').update(server.code).digest('hex'))),
      );
    return stamp;
  };
}

/**
 * Waits for all of `work`, then reports the first failure in the order given, not the first to
 * happen: build and dev mode report one problem the same way whatever finished first.
 */
export async function inOrder<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
