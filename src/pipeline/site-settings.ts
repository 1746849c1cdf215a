// What the data files and the site definition make of the site as a whole: its data checked, its
// base URL, meta and feed, and its own images.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { localePath, localesOf, routeLocalePath, type Locales } from '../render/i18n.ts';
import { checkStrings } from '../render/strings.ts';
import type { ServerModule } from '../bundle/bundle-server.ts';
import { firstContentCollection, readDataCollections, type ResolvedCollection } from '../content/collections.ts';
import { parseDataFiles, type DataFile } from '../content/data.ts';
import { catalogueError, type ErrorDetails } from '../errors/errors.ts';
import { isSiteFilePath } from '../render/site-files.ts';
import type { OutputFile } from '../output/output-file.ts';
import { relativeToRoot, type Project } from '../project.ts';
import type { DataSchema, FeedDefinition, Route, SiteMeta } from '../render/site-definition.ts';
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
  /** The site's feed; with `i18n`, one per locale (`locale` set), each of that locale's articles. */
  feeds: readonly FeedDefinition[];
  /** The site's own images, processed (pages receive them as data.images). */
  images: OutputFile[];
  /** The optional features the site turns on (search, the editor), their options checked. */
  features: readonly FeatureOn[];
}

/** The site's entry (site/index.tsx) as errors name it: from the project root, forward slashes. */
export const siteEntryShown = (project: Project) =>
  relativeToRoot(project, project.siteEntry).split(path.sep).join('/');

/** Whether a locale has content: the default locale's files are at the top of each collection, another's in its folder there. */
const hasLocaleContent = (collections: readonly ResolvedCollection[], i18n: Locales, locale: string) =>
  locale === i18n.defaultLocale ||
  collections.some((one) => one.type === 'content' && existsSync(path.join(one.dir, locale)));

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
    if (clash && declared.implicit)
      throw catalogueError('StringsInvalid', ['dataFile', clash.file], { file: clash.file });
    if (clash) throw catalogueError('CollectionInvalid', ['dataClash', name, clash.file], declared.where);
    data[name] = entries;
  }
  const i18n = localesOf(site);
  if (i18n) checkStrings(data, i18n, (locale) => hasLocaleContent(collections, i18n, locale), options.warn);
  // Every page below its locale's folder: the site's own address would answer with the host's not-found page.
  if (i18n?.prefixDefaultLocale && !site.redirects?.['/'])
    options.warn(
      `${siteEntryShown(project)}: with i18n.prefixDefaultLocale no page is written at /, so a visitor at the site's address finds none; add redirects: { '/': { destination: '/${i18n.defaultLocale}', status: 302 } } to defineSite.`,
    );
  const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
  runSiteCheck(site, data, options);
  const images = await options.siteImages(server, data);
  const feeds = (i18n ? i18n.locales : [undefined]).flatMap((locale) => {
    const feed = checkedFeed(project, collections, site.feed?.(data, locale));
    return feed ? [i18n && locale ? inLocale(feed, i18n, site.routes, locale) : feed] : [];
  });
  const routes = site.routes.map((route) => route.path);
  const features = featuresOn(site, { routes, siteFile: siteEntryShown(project) });
  return { data, baseUrl, meta: site.meta?.(data), feeds, images, features };
}

/** The site's feed as declared, checked: a collection it has, a path inside the output, a link. */
function checkedFeed(
  project: Project,
  collections: readonly ResolvedCollection[],
  declared: FeedDefinition | undefined,
): FeedDefinition | undefined {
  if (!declared) return undefined;
  // A feed carries the first content collection's articles (the news) unless it names another.
  const feed = { ...declared, collection: declared.collection ?? firstContentCollection(collections)?.name };
  const where = { file: siteEntryShown(project) };
  if (
    feed.collection !== undefined &&
    !collections.some((one) => one.type === 'content' && one.name === feed.collection)
  )
    throw catalogueError('CollectionInvalid', ['feed', feed.collection], where);
  // Written where it says: a path like ../x would land outside the output folder.
  if (!(typeof feed.path === 'string' && isSiteFilePath(feed.path)))
    throw catalogueError('GeneratedFilePathInvalid', ['feed', feed.path], where);
  if (typeof feed.link !== 'function') throw catalogueError('GeneratedFilePathInvalid', ['feedLink'], where);
  return feed;
}

/**
 * A locale's feed: below the locale's prefix (`/de/news/feed.xml`), of its articles, each linked
 * to its page there (the path `link` gives, as the default locale has it, in the locale).
 */
function inLocale(feed: FeedDefinition, i18n: Locales, routes: readonly Route<any>[], locale: string): FeedDefinition {
  return {
    ...feed,
    locale,
    home: localePath(i18n, '/', locale),
    path: localePath(i18n, feed.path, locale),
    link: (article) => routeLocalePath(i18n, routes, feed.link(article), locale),
  };
}
