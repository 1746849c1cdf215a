// How an optional feature plugs into ssg: the one contract the pipeline, `build` and dev call,
// without naming a feature. A site turns a feature on with its option of `defineSite`; a site that
// does not set it runs none of the feature's code and loads none of its packages.
import type { ServerResponse } from 'node:http';
import type { Article } from '../content/article.ts';
import type { ResolvedCollection } from '../content/collections.ts';
import type { DataFile } from '../content/data.ts';
import type { DrawMany } from '../content/drawing.ts';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import type { Output, OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import type { PageReads } from '../render/dependencies.ts';
import type { PageJob } from '../render/routes.ts';
import type { FolderHeaders, PathHeader } from '../render/site-files.ts';

/** What a feature's option is checked against. */
export interface FeatureSite {
  /** The route table's paths (`/news/:slug`). */
  routes: readonly string[];
  /** The site's entry as errors name it (`site/index.tsx`). */
  siteFile: string;
}

/** What a feature makes: files of the site (the search index), and whatever tells it what they were made of. */
export interface Made {
  files: OutputFile[];
}

/** What a feature made in a run, or how to make it once asked for (dev). */
export interface FeatureMade<M extends Made = Made> {
  made?: M;
  /** Makes it from this run's pages, or takes `kept` when that was made of the same pages. */
  make?: (kept: M | undefined) => Promise<M>;
}

/** What a feature's part in a run starts from. */
export interface FeatureRunInput<M extends Made = Made> {
  /** Every page of the run, as the routes were expanded. */
  jobs: readonly PageJob[];
  /**
   * The articles as the routes list them: parsed, not converted (no HTML, headings or reading time),
   * with the drafts and future posts the run shows (`--drafts`, `--future`, dev): filter with
   * `isPublished` for what everyone sees.
   */
  articles: readonly Article[];
  /** The style sheet every page carries inline, when it does. */
  inlineStyle?: { url: string; text: string };
  now: Date;
  /** What the last run made, or what the last build kept (the cache folder); dev makes when asked and passes its kept files to `make`. */
  earlier?: M;
  /**
   * Dev: a save never waits for what is slow to make (the search index): make it only once asked
   * for, handing `make` back. What the site's pages need (the drawn cards) is made in the run anyway.
   */
  whenAsked: boolean;
  /** What made is kept for the next run in this process (dev), so may hold what it made (bytes); else nothing is held between runs. */
  heldBetweenRuns: boolean;
  /** What the run read the site with: its compiled code, its collections, its data, its base URL. */
  site: {
    server: ServerBundle;
    collections: readonly ResolvedCollection[];
    data: Record<string, unknown>;
    baseUrl: string;
  };
  project: Project;
  /** Whether what these reads noted (of the articles and the data) changed in this run; always, when the run makes everything again. */
  changed(reads: PageReads): boolean;
  /** Draws with the site's drawers: in the helper processes when there are many (none: the site bundle failed). */
  draw?: DrawMany;
  warn: (message: string) => void;
}

/** A feature's part in one run of the pipeline, in the order the pipeline calls it. */
export interface FeatureRun<M extends Made = Made> {
  /**
   * Wraps the run's output: hears of each file written (pages as they are rendered or carried
   * over), writes the feature's own files before the output commits, and ends its work when the
   * run is aborted, before the run returns.
   */
  output?<Written>(output: Output<Written>): Output<Written>;
  /** Every page of the run is made, each with its hash: what the feature makes of them starts now. */
  pagesMade?(pages: ReadonlyMap<string, { hash: string }>): void;
  /**
   * The feature's files of the site (the drawn share cards), awaited once every page is made: the
   * site's checks see them (links to them, clashes with public files), and the pipeline writes them.
   * Their failure is reported after the pages'.
   */
  files?(): Promise<OutputFile[]>;
  /** What the run's state keeps: the next run's `earlier`. Asked after the output committed. */
  made(): FeatureMade<M>;
}

/** What a feature's files beside the site files are made from. */
export interface FeatureFilesInput {
  project: Project;
  baseUrl: string;
  /** The site's name (its meta), else its base URL. */
  siteName: string;
  /** The content collections. */
  collections: readonly ResolvedCollection[];
  /** The data files, and the schemas the site declares for them by name. */
  dataSources: readonly DataFile[];
  schemas: Record<string, unknown>;
  /** The site's headers. */
  headers: Record<string, string> | undefined;
  warn: (message: string) => void;
}

/** Files a feature adds beside the site files (the editor's `/admin`), and its folder's own headers. */
export interface FeatureFiles {
  files: OutputFile[];
  folderHeaders?: FolderHeaders;
}

/** A feature as the site turned it on: its option checked, its settings closed over. */
export interface FeatureOn<M extends Made = Made> {
  feature: Feature<M>;
  /** A header the feature gives some paths in `_headers` (and nginx's rules), from the site's. */
  header?(jobs: readonly PageJob[], headers: Record<string, string> | undefined): PathHeader | undefined;
  /** Its files beside the site files, made with them (a file of the site's public folder wins). */
  files?(input: FeatureFilesInput): FeatureFiles;
  /** Its part in each run, when it makes something of the pages. */
  run?(input: FeatureRunInput<M>): FeatureRun<M>;
}

/** What a feature's part in a dev session is given. */
export interface FeatureDevSite {
  root: string;
  /** Dev's output folder. */
  outDir: string;
  warn: (message: string) => void;
  /** The headers the last build wrote for a site path (`_headers`). */
  headersFor(sitePath: string): Record<string, string>;
}

/** A feature's part in a dev session: what it serves itself, beside dev's files. */
export interface FeatureDevSession {
  /** Whether a site path is the feature's: served as built, with no reload script, with `headers`. */
  owns(sitePath: string): boolean;
  headers(sitePath: string): Record<string, string>;
  /** Answers a request itself (and says so), or leaves it to dev's files. */
  serve(sitePath: string, response: ServerResponse): Promise<boolean>;
  /** After the first build; its failure is the feature's to tell, dev goes on. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** What `build` keeps of what a feature made, for the next build, in the cache folder. */
export interface FeatureCache<M extends Made = Made> {
  read(): M | undefined;
  /** Keeps what the build made, unless it is what `read` gave. Never fails the build (it may throw: ignored). */
  keep(made: M | undefined): void;
}

/** An optional feature. */
export interface Feature<M extends Made = Made> {
  /** Its option of `defineSite`: the feature is off while the option is not set. */
  option: string;
  /**
   * Checks the option's value against the site (a named error for a mistake) and turns the feature
   * on. Its shape is checked before, with every option of `defineSite` (render/site-options.ts).
   */
  turnOn(value: unknown, site: FeatureSite): FeatureOn<M>;
  cache?(cacheDir: string): FeatureCache<M>;
  /**
   * In dev, where its files are made only when asked for: a request under `askedUnder` waits for
   * `make`, whose files dev then writes; `stop` ends work under way (dev is ending).
   */
  dev?: { askedUnder: string; stop(): Promise<unknown> };
  /** Its part in a dev session: dev asks it only while the last good build turned the feature on. */
  devSession?(site: FeatureDevSite): FeatureDevSession;
}
