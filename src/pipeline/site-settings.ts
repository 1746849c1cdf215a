// What the data files and the site definition make of the site as a whole: its data checked, its
// base URL, meta and feed, and its own images.
import path from 'node:path';
import type { ServerModule } from '../bundle/bundle-server.ts';
import { firstContentCollection, readDataCollections, type ResolvedCollection } from '../content/collections.ts';
import { parseDataFiles, type DataFile } from '../content/data.ts';
import { catalogueError, type ErrorDetails } from '../errors/errors.ts';
import { isSiteFilePath } from '../render/site-files.ts';
import type { OutputFile } from '../output/output-file.ts';
import { relativeToRoot, type Project } from '../project.ts';
import type { DataSchema, FeedDefinition, SiteMeta } from '../render/site-definition.ts';
import type { FeatureOn } from '../features/contract.ts';
import { featuresOn } from './features.ts';

/** `https://example.com/` → `https://example.com`; anything but an absolute http(s) origin is refused. */
function normalizeBaseUrl(value: unknown, source: string): string {
  const fail = (why: ErrorDetails<'BaseUrlInvalid'>) => catalogueError('BaseUrlInvalid', why, { file: source });
  if (typeof value !== 'string' || value === '') throw fail(['unset']);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(['notAbsolute', value]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(['notHttp', value]);
  if (url.pathname !== '/' || url.search || url.hash) throw fail(['hasPath', value]);
  return url.origin;
}

/** The base URL: the command line's, else `baseUrl` of the site config. */
function resolveBaseUrl(project: Project, data: Record<string, unknown>, override: string | undefined): string {
  const siteConfig = data[project.siteConfigName] as { baseUrl?: unknown } | undefined;
  const configFile = `content/${project.siteConfigName}.yaml`;
  if (!override && !siteConfig) {
    throw catalogueError('SiteConfigMissing', [configFile]);
  }
  return normalizeBaseUrl(override ?? siteConfig?.baseUrl, override ? '--base-url' : configFile);
}

/** What the data files and the site definition make of the site as a whole. */
export interface SiteSettings {
  data: Record<string, unknown>;
  baseUrl: string;
  meta?: SiteMeta;
  feed?: FeedDefinition;
  /** The site's own images, processed (pages receive them as data.images). */
  images: OutputFile[];
  /** The optional features the site turns on (search, the editor), their options checked. */
  features: readonly FeatureOn[];
}

/** The site's entry (site/index.tsx) as errors name it: from the project root, forward slashes. */
export const siteEntryShown = (project: Project) =>
  relativeToRoot(project, project.siteEntry).split(path.sep).join('/');

/** The site's own check of its data: its warnings to `warn` as it gives them, or to `checkWarnings` together. */
function runSiteCheck(
  site: ServerModule['site'],
  data: Record<string, unknown>,
  options: { warn: (message: string) => void; checkWarnings?: (messages: readonly string[]) => void },
): void {
  const { checkWarnings } = options;
  if (!checkWarnings) return site.check?.(data, options.warn);
  const said: string[] = [];
  try {
    site.check?.(data, (message) => void said.push(message));
  } finally {
    // Those given before the check threw too, as `warn` would have printed them.
    checkWarnings(said);
  }
}

/**
 * Data checked against the site's schemas, the base URL, the site's own check, the site's images
 * (the image stage adds them to the data), then meta and feed, which may name an image.
 */
export async function siteSettings(
  project: Project,
  server: ServerModule,
  dataSources: readonly DataFile[],
  /** The site's collections, as the article stage resolved them. */
  collections: readonly ResolvedCollection[],
  options: {
    baseUrl?: string;
    warn: (message: string) => void;
    checkWarnings?: (messages: readonly string[]) => void;
    siteImages: (server: ServerModule, data: Record<string, unknown>) => Promise<OutputFile[]>;
  },
): Promise<SiteSettings> {
  const site = server.site;
  const data = parseDataFiles([...dataSources], (site.schemas ?? {}) as Record<string, DataSchema>);
  // A data collection's entries are data under its name: a page that reads them is made again when they change.
  for (const [name, entries] of Object.entries(await readDataCollections(project.root, collections))) {
    const clash = dataSources.find((source) => source.name === name);
    const declared = collections.find((one) => one.name === name)!;
    if (clash) throw catalogueError('CollectionInvalid', ['dataClash', name, clash.file], declared.where);
    data[name] = entries;
  }
  const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
  runSiteCheck(site, data, options);
  const images = await options.siteImages(server, data);
  const declared = site.feed?.(data);
  // A feed carries the first content collection's articles (the news) unless it names another.
  const feed = declared && {
    ...declared,
    collection: declared.collection ?? firstContentCollection(collections)?.name,
  };
  if (
    feed?.collection !== undefined &&
    !collections.some((one) => one.type === 'content' && one.name === feed.collection)
  )
    throw catalogueError('CollectionInvalid', ['feed', feed.collection], { file: siteEntryShown(project) });
  // Written where it says: a path like ../x would land outside the output folder.
  if (feed && !(typeof feed.path === 'string' && isSiteFilePath(feed.path))) {
    throw catalogueError('GeneratedFilePathInvalid', ['feed', feed.path], { file: siteEntryShown(project) });
  }
  const routes = site.routes.map((route) => route.path);
  const features = featuresOn(site, { routes, siteFile: siteEntryShown(project) });
  return { data, baseUrl, meta: site.meta?.(data), feed, images, features };
}
