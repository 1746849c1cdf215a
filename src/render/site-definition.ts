import type { ArticleWords } from '../content/article-words.ts';
import type { ReactNode } from 'react';
import type { Article } from '../content/article.ts';
import type { DataSchema } from '../content/data.ts';
import type { Drawer } from '../content/drawing.ts';
import type { CollectionDefinition, DefaultCollections } from '../content/collections.ts';
import type { MarkdownOptions } from '../content/markdown-options.ts';
import { recordDeclarationSite } from '../content/declaration-site.ts';

export type { DataSchema, Drawer, MarkdownOptions };

/** How staff sign in to save: the Git host's repository, and the OAuth proxy that signs them in. */
export interface EditorBackend {
  /** `owner/name` on GitHub. */
  repo: string;
  /** The branch the editor commits to (and opens pull requests against). `main` when not given. */
  branch?: string;
  /**
   * The origin of the OAuth proxy that exchanges GitHub's sign-in code for a token (a small
   * Cloudflare Worker, say): Decap's `base_url`. GitHub's own when not given (Netlify's service).
   */
  oauthProxy?: string;
  /** The proxy's path that starts the sign-in (Decap's `auth_endpoint`), `auth` when not given. */
  authEndpoint?: string;
}

/** `defineSite({ editor })`: the content editor at /admin. */
export interface EditorOptions {
  backend: EditorBackend;
  /** `editorial_workflow`: each article is a draft pull request until published. `simple` by default. */
  publishMode?: 'simple' | 'editorial_workflow';
  /**
   * Labels: of the first content collection (`articles`: `News`), of any collection by its name
   * (`collections`), and of each data file by its name (`data`).
   */
  labels?: { articles?: string; collections?: Record<string, string>; data?: Record<string, string> };
  /** Data files the editor leaves out, by name (a settings file only developers should change). */
  exclude?: string[];
}

/** `defineSite({ search })`: full-text search of the built pages with Pagefind. */
export interface SearchDefinition {
  /**
   * The routes whose pages are indexed, as written in `routes` (`'/news/:slug'`). Only the part
   * of a page marked `data-pagefind-body` is indexed when a page has one. Pages of drafts, of
   * articles held back for their date and of `noindex` routes are never indexed.
   */
  indexed: string[];
  /**
   * The routes whose pages carry a search box. Their Content-Security-Policy (and that of the
   * index's own files) allows `'wasm-unsafe-eval'` and `connect-src 'self'`; every other page's
   * policy is left as the site's `headers()` wrote it.
   */
  pages: string[];
  /** One language for the whole index (ISO 639-1, `en`); by default each page's `lang`. */
  language?: string;
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** A destination, or a destination with its status (301 when not given), as Astro's `redirects` take. */
export type RedirectRule = string | { destination: string; status?: RedirectStatus };

/**
 * What every page and the layout receive. `Data` is the site's YAML data (its schemas' types);
 * `Entry` what the route's `entries()` hand each page as `props` (`{ article: Article }`, say);
 * `Collections` the entries of each collection (`CollectionsOf<typeof collections>`).
 */
export interface PageProps<
  Data = Record<string, unknown>,
  Entry extends object = Record<string, unknown>,
  Collections = DefaultCollections,
> {
  /** The URL path of this page, for example `/news/hello-world`. */
  path: string;
  /** Route parameters, for example `{ slug: 'hello-world' }` for `/news/:slug`. */
  params: Record<string, string>;
  /** What the route's `entries()` gave this page as `props` (its article, say); `{}` on a route without entries. */
  entry: Entry;
  /** The published articles of the first content collection (the news), newest first. */
  articles: readonly Article[];
  /**
   * The published entries of each collection, by its name: a content collection's articles
   * newest first, a data collection's entries by file name.
   */
  collections: Collections;
  /** The YAML files of `content/`, by file name without extension, checked by the site's schemas. */
  data: Data;
  /** The absolute origin of the site, without a trailing slash. */
  baseUrl: string;
  /**
   * The build time. For dates (the year in a footer, say), not times of day: a page rendered
   * earlier the same day (UTC) with the same inputs is taken from the page cache as it was.
   */
  now: Date;
  /** The page's locale (`de`), with `i18n` in the site's definition; else undefined. */
  locale?: string;
  /** The page in each locale it exists in, itself among them, in the order of `i18n.locales`; empty without `i18n`. */
  alternates: readonly { locale: string; path: string }[];
  /** A path of the site in a locale (this page's, unless given): `/about` in `de` is `/de/about`; the path itself without `i18n`. */
  localePath: (path: string, locale?: string) => string;
  /**
   * With `i18n`: the site's text for a key in the page's locale, from `content/strings/<locale>.yaml`
   * (the default locale's when that file lacks it), each `{name}` filled from `values`.
   */
  t: (key: string, values?: Readonly<Record<string, string | number>>) => string;
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
  /** The content collection whose articles it carries; the first declared when not given. */
  collection?: string;
  title: string;
  description: string;
  /** The page of an article. */
  link: (article: Article) => string;
  /** How many of the newest articles the feed carries (default 50): readers poll it often. */
  limit?: number;
  /** With `i18n`: the locale whose articles it carries (set by the generator, one feed per locale). */
  readonly locale?: string;
  /** With `i18n`: the home page of its locale (`/de`), the page it names as its site's. */
  readonly home?: string;
}

/** One route of the site: a path, the page component, its head, and (with parameters) its pages. */
export interface Route<
  Data = Record<string, unknown>,
  Entry extends object = Record<string, unknown>,
  Collections = DefaultCollections,
> {
  /** `/about`, or with parameters `/news/:slug`; a last segment `404` is written as `404.html`. */
  path: string;
  /**
   * The page, a function component rendered to HTML at build time (islands inside it hydrate in
   * the browser). A function, so a page typed for the default `PageProps` fits any site's routes.
   */
  page: (props: PageProps<Data, Entry, Collections>) => ReactNode;
  /** The page's title, description, share image and structured data. */
  head: (props: PageProps<Data, Entry, Collections>) => Head;
  /** For a path with parameters: one entry per page to write, its parameters and the props its page receives as `entry`. */
  entries?: (context: RouteContext<Data, Collections>) => RouteEntry<Entry>[];
  /** With `i18n`: the locales the route exists in (all of the site's by default). */
  locales?: readonly string[];
  /** With `i18n`: the route's own path in a locale, below the locale's prefix (`{ de: '/ueber-uns' }`, written at `/de/ueber-uns`). */
  paths?: Readonly<Record<string, string>>;
  /**
   * Not for search engines (a form's answer, a thank-you page): its pages carry
   * `<meta name="robots" content="noindex">`, no canonical link, and stay out of the sitemap.
   */
  noindex?: boolean;
}

/** What a route's `entries()` lists its pages from. */
export interface RouteContext<Data = Record<string, unknown>, Collections = DefaultCollections> {
  /** The published articles of the first content collection (the news), newest first. */
  articles: readonly Article[];
  data: Data;
  /** The published entries of each collection, by its name. */
  collections: Collections;
  /** With `i18n`: the locale whose pages `entries()` lists now (it is called once per locale). */
  locale?: string;
}

/** One page of a route with parameters: the values of its parameters, and data for the page. */
export interface RouteEntry<Entry extends object = Record<string, unknown>> {
  /** A value for each `:name` of the route's path: letters, digits, `-`, `_`, `.` and `~`. */
  params: Record<string, string>;
  /** Handed to the page and its head as `entry`. */
  props?: Entry;
  /** With `i18n`: what links this page to its translations (the same key in another locale); its params by default. */
  translationKey?: string;
}

/** The site's languages: each route is written once per locale. */
export interface SiteI18n {
  /** Language tags, such as `['en', 'de']`. */
  locales: readonly string[];
  /** The locale of the pages at the site's own paths (`/about`); the others are below `/<locale>`. */
  defaultLocale: string;
  /** Puts the default locale's pages below its prefix too (`/en/about`). */
  prefixDefaultLocale?: boolean;
  /**
   * A locale's collections also list the articles of another locale that have no translation in
   * it (`{ de: 'en' }`): each is then written in that locale too, its canonical URL the original.
   */
  fallback?: Readonly<Record<string, string>>;
  /** A string missing in one locale's strings file, or a locale with neither strings nor articles, stops the build instead of a warning. */
  strict?: boolean;
  /**
   * The words ssg writes in articles (footnotes, the copy button), per locale, over its own
   * English and German ones: `{ de: { footnotes: 'Anmerkungen' } }`.
   */
  words?: Readonly<Record<string, Partial<ArticleWords>>>;
}

export interface SiteDefinition<Data = Record<string, unknown>, Collections = DefaultCollections> {
  /** The pages of the site, in order; `defineRoute` types a route's `entry` from its `entries()`. */
  // Each route has its own entry type; `defineRoute` checks a route against its own.
  routes: Route<Data, any, Collections>[];
  /** The site's languages (docs/i18n.md): each route is written once per locale. */
  i18n?: SiteI18n;
  /**
   * The site's collections by name, each made with `defineCollection`: a folder below content/
   * (the name, unless `folder` says another) of articles (`.md`, `.mdx`) or, with `type: 'data'`,
   * of YAML or JSON files, and its zod schema. Pages receive their entries as `collections.<name>`.
   * Without it the site has one content collection, `news` (content/news).
   */
  collections?: Readonly<Record<string, CollectionDefinition<any>>>;
  /** Wraps every page; receives the page as children. */
  layout?: (props: PageProps<Data, Record<string, unknown>, Collections> & { children: ReactNode }) => ReactNode;
  /** Schema checks for `content/<name>.yaml`, by name. */
  schemas?: { [Name in keyof Data]?: DataSchema<Data[Name]> };
  /** Runs once after the data is loaded, for warnings such as placeholder values still in use. */
  check?: (data: Data, warn: (message: string) => void) => void;
  /** Name, description and images for meta tags, the manifest and the feed. */
  meta?: (data: Data) => SiteMeta;
  /**
   * An RSS feed of the articles (Atom and JSON Feed beside it). With `i18n`, called once per locale:
   * its path and links as the default locale has them, each put below the locale's prefix.
   */
  feed?: (data: Data, locale?: string) => FeedDefinition;
  /** Files drawn at build time (share images), each cached by its path, its key and the site code. */
  files?: (context: GeneratedFilesContext<Data, Collections>) => GeneratedFile[];
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
   * Addresses that moved, each to a path on the site or another site: `{ '/blog/hello': '/news/hello' }`,
   * or with a status, `{ '/old': { destination: '/new', status: 302 } }` (301 when not given). Each is
   * written for every host (`_redirects`, the nginx include, a page with a refresh for hosts
   * without rules) and answered by dev, preview and serve. One whose source is a page, whose
   * destination is no page or file, or that loops stops the build. Articles add theirs with
   * `aliases` or `redirect_from` in their front matter.
   */
  redirects?: Record<string, RedirectRule>;
  /**
   * The site's own Markdown plugins (`remarkPlugins`, `rehypePlugins`, each a plugin or
   * `[plugin, options]`) and what the sanitiser should keep of their output (`allow`).
   */
  markdown?: MarkdownOptions;
  /**
   * A content editor for staff at `/admin` (Decap CMS), configured from the front-matter fields
   * and the data files' schemas: the Git repository it saves to and the OAuth proxy staff sign in
   * through. `ssg dev` serves it with a local backend that writes `content/` directly.
   */
  editor?: EditorOptions;
  /**
   * Full-text search with Pagefind, indexed from the built pages in the same run that writes
   * them: `{ indexed: ['/news/:slug'], pages: ['/news'] }`. The index goes to `/pagefind/`; the
   * pages named in `pages` may load it (`/pagefind/pagefind.js`), and only their
   * Content-Security-Policy allows `'wasm-unsafe-eval'`. See docs/search.md.
   */
  search?: SearchDefinition;
}

export interface GeneratedFilesContext<Data = Record<string, unknown>, Collections = DefaultCollections> {
  /** The published articles of the first content collection (the news), newest first. */
  articles: readonly Article[];
  /** The published entries of each collection, by its name. */
  collections: Collections;
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

/**
 * A route whose page and head receive, as `entry`, the type of the props its `entries()` returns:
 * `defineRoute({ path: '/news/:slug', entries: ({ articles }) => articles.map((article) => ({ params:
 * { slug: article.slug }, props: { article } })), page: ArticlePage, head: ({ entry }) => ({ title:
 * entry.article.title }) })`. Write `entries` before `page` and `head`, so TypeScript reads it first.
 */
export function defineRoute<
  Data = Record<string, unknown>,
  Entry extends object = Record<string, unknown>,
  Collections = DefaultCollections,
>(route: Route<Data, Entry, Collections>): Route<Data, Entry, Collections> {
  return route;
}

/** The site: its routes, layout, collections, data schemas, metadata, feed, drawn files, headers and Markdown options. */
export function defineSite<Data = Record<string, unknown>, Collections = DefaultCollections>(
  site: SiteDefinition<Data, Collections>,
): SiteDefinition<Data, Collections> {
  // Errors about an option then name the file and line that declare it.
  if (site && typeof site === 'object') recordDeclarationSite(site, defineSite);
  return site;
}
