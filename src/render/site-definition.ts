import type { ComponentType, ReactNode } from 'react';
import type { Article } from '../content/article.ts';
import type { DataSchema } from '../content/data.ts';
import type { MarkdownOptions } from '../content/markdown-options.ts';

export type { DataSchema, MarkdownOptions };

/** What every page and the layout receive. */
export interface PageProps<Data = Record<string, unknown>> {
  /** The URL path of this page, for example `/news/hello-world`. */
  path: string;
  /** Route parameters, for example `{ slug: 'hello-world' }` for `/news/:slug`. */
  params: Record<string, string>;
  /** What the route's `entries()` gave this page besides its parameters (its article, say). */
  entry: Record<string, unknown>;
  /** Every published article, newest first. */
  articles: readonly Article[];
  /** The YAML files of `content/`, by file name without extension, checked by the site's schemas. */
  data: Data;
  /** The absolute origin of the site, without a trailing slash. */
  baseUrl: string;
  /**
   * The build time. For dates (the year in a footer, say), not times of day: a page rendered
   * earlier the same day (UTC) with the same inputs is taken from the page cache as it was.
   */
  now: Date;
}

export interface Head {
  title: string;
  description?: string;
  /** Open Graph type: `article` for articles, `website` (default) otherwise. */
  type?: 'website' | 'article';
  /** A share image for this page (a path on the site, or one with its size and text); the site's default otherwise. */
  image?: string | HeadImage;
  /** When an article was first published (ISO 8601), for `article:published_time`. */
  publishedTime?: string;
  /** When it was last changed (ISO 8601), for `article:modified_time`. */
  modifiedTime?: string;
  /** The previous and next page of a paginated list (paths on the site), for `rel="prev"`/`"next"`. */
  prev?: string;
  next?: string;
  /** Structured data (schema.org), written as JSON-LD. */
  jsonLd?: object | object[];
  /** The page's canonical URL, absolute, when it is not the page's own (an article published first elsewhere). */
  canonical?: string;
}

export interface HeadImage {
  /** A path on the site, such as `/news/hello-world.png`. */
  path: string;
  width: number;
  height: number;
  /** What the image shows, for `og:image:alt`. */
  alt: string;
}

/** What the generator needs to describe the site to search engines, feed readers and phones. */
export interface SiteMeta {
  name: string;
  shortName?: string;
  description: string;
  /** Language of the pages, for the feed and the manifest (`en`). */
  language: string;
  /** Default share image, a path on the site (1200×630 PNG). */
  image?: string;
  /** Icon for the web manifest, a path on the site. */
  icon?: string;
  themeColor?: string;
  backgroundColor?: string;
  /** `@handle` on X for Twitter cards. */
  twitterSite?: string;
}

export interface FeedDefinition {
  /** Where the feed is written, for example `/news/feed.xml`. */
  path: string;
  title: string;
  description: string;
  /** The page of an article. */
  link: (article: Article) => string;
  /** How many of the newest articles the feed carries (default 50): readers poll it often. */
  limit?: number;
}

export interface Route<Data = Record<string, unknown>> {
  /** `/about`, or with parameters `/news/:slug`; a last segment `404` is written as `404.html`. */
  path: string;
  page: ComponentType<PageProps<Data>>;
  head: (props: PageProps<Data>) => Head;
  /** For a path with parameters: one entry per page to write. */
  entries?: (context: { articles: readonly Article[]; data: Data }) => RouteEntry[];
  /**
   * Not for search engines (a form's answer, a thank-you page): its pages carry
   * `<meta name="robots" content="noindex">`, no canonical link, and stay out of the sitemap.
   */
  noindex?: boolean;
}

/** One page of a route with parameters: the values of its parameters, and data for the page. */
export interface RouteEntry {
  params: Record<string, string>;
  props?: Record<string, unknown>;
}

import type { Drawer } from '../content/drawing.ts';

export type { Drawer } from '../content/drawing.ts';

export interface SiteDefinition<Data = Record<string, unknown>> {
  routes: Route<Data>[];
  /** Wraps every page; receives the page as children. */
  layout?: ComponentType<PageProps<Data> & { children: ReactNode }>;
  /** Schema checks for `content/<name>.yaml`, by name. */
  schemas?: { [Name in keyof Data]?: DataSchema<Data[Name]> };
  /** Runs once after the data is loaded, for warnings such as placeholder values still in use. */
  check?: (data: Data, warn: (message: string) => void) => void;
  /** Name, description and images for meta tags, the manifest and the feed. */
  meta?: (data: Data) => SiteMeta;
  /** An RSS feed of the articles. */
  feed?: (data: Data) => FeedDefinition;
  /** Files drawn at build time (share images), each cached by its path, its key and the site code. */
  files?: (context: GeneratedFilesContext<Data>) => GeneratedFile[];
  /**
   * Functions that draw a generated file from plain data, by name: a file of `files()` that names
   * one (`draw: { drawer, input }`) is drawn in the build's helper processes, beside the Markdown
   * conversion, when there are many to draw, else in the build's own process.
   */
  drawers?: Record<string, Drawer>;
  /** Response headers for every page (security headers), written to `_headers` and sent by preview and serve. */
  headers?: (data: Data) => Record<string, string>;
  /**
   * Raster images in the public folder the pages show (photos, the share image): processed at
   * build time like article images and handed to pages as `data.images[path]` (a PictureData).
   */
  images?: (data: Data) => string[];
  /**
   * The site's own Markdown plugins (`remarkPlugins`, `rehypePlugins`, each a plugin or
   * `[plugin, options]`) and what the sanitiser should keep of their output (`allow`).
   */
  markdown?: MarkdownOptions;
}

export interface GeneratedFilesContext<Data = Record<string, unknown>> {
  articles: readonly Article[];
  data: Data;
  baseUrl: string;
  /** The site folder, for files the drawing reads (fonts). */
  root: string;
  /** Prints a warning with the build's others (name the file it is about). */
  warn: (message: string) => void;
}

/** A file the site draws at build time. */
export interface GeneratedFile {
  /** A path on the site, `/news/hello-world.png`. */
  path: string;
  /** Everything the file's contents depend on besides the site code (title, date, brand…), as text. */
  key: string;
  /** Draws the file in the build's own process. A file has this or `draw`. */
  render?: () => Promise<Uint8Array> | Uint8Array;
  /**
   * Draws the file with one of the site's `drawers`, from `input`: plain data (JSON-like values,
   * dates, typed arrays), since it may be sent to a helper process.
   */
  draw?: { drawer: string; input: unknown };
  /**
   * The content file the file is made from, when it is made from one an author wrote (an
   * article's own share image): a failure of `render` is then reported as that file's problem,
   * with render's message, instead of as a fault of the site's code.
   */
  source?: string;
}

export function defineSite<Data = Record<string, unknown>>(site: SiteDefinition<Data>): SiteDefinition<Data> {
  return site;
}
