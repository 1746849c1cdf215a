// The stages between reading the inputs and checking the site, shared by `build` and dev mode:
// what pages are rendered with, and the files the site makes besides its pages. Each is a plain
// function of its inputs, so a change here holds in both.
import type { Article } from '../content/article.ts';
import type { ResolvedCollection } from '../content/collections.ts';
import type { ClientBundle } from '../render/bundles.ts';
import type { ServerModule } from '../bundle/bundle-server.ts';
import { addCspSources } from '../render/csp.ts';
import { featureFiles, featureHeader } from './features.ts';
import type { OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import type { RenderContext } from '../render/render.ts';
import type { PageJob } from '../render/routes.ts';
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
    feeds: settings.feeds.map(({ path, title, locale }) => ({ path, title, locale })),
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
    ...settings.feeds.flatMap((feed) =>
      Object.values(feedPaths(feed.path)).flatMap((file) => (file ? [file.replace(/^\//, '')] : [])),
    ),
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
    feeds: settings.feeds,
    headers,
    pathHeader: featureHeader(settings.features, jobs, headers),
    publicFiles,
    folderHeaders: features.folderHeaders,
  });
  return [...files, ...features.files.filter((file) => !publicFiles.has(file.path))];
}
