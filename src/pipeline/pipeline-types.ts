// The shapes the one pipeline (pipeline.ts) passes between its stages and its strategies.
import type { DrawMany } from '../content/drawing.ts';
import type { ArticleLimits } from '../content/limits.ts';
import type { Article } from '../content/article.ts';
import type { ResolvedCollection } from '../content/collections.ts';
import type { ClientBundle } from '../render/bundles.ts';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import type { DataFile } from '../content/data.ts';
import type { PageReads } from '../render/dependencies.ts';
import type { LinkCheckContext, LinkCheckMemo, PageLinks } from '../render/links.ts';
import type { Output, OutputFile } from '../output/output-file.ts';
import type { PageJob } from '../render/routes.ts';
import type { DocumentShell } from '../render/template.ts';
import type { ImageStage } from './images.ts';
import type { Interrupts } from '../base/interrupt.ts';
import type { SiteSettings } from './site-settings.ts';
import type { EditConverter } from '../pool/edit-converter.ts';
import type { SpareHelper } from '../pool/helper-process.ts';
import type { SiteModuleCopies } from './site-markdown.ts';
import type { Feature, Made } from '../features/contract.ts';
import type { FeaturesMade } from './features.ts';

export type { Output } from '../output/output-file.ts';

/** What a change touched, by the kind of input. */
export type ChangeKind = 'article' | 'data' | 'template' | 'style' | 'public' | 'code';

/** How the bundles are made: once (build), or by contexts kept alive and rebuilt (dev). */
export interface Bundler {
  server(): Promise<ServerBundle>;
  /** After the site's code (`code`: islands and scripts) or its styles changed; both at first. */
  client(changed: { code: boolean; style: boolean }): Promise<ClientBundle>;
  dispose(): Promise<void>;
}

/** Articles converting in helper processes; one is ready once converted and its images processed. */
export interface Conversion {
  /** Each ready article, as listed (the routes' entries hold these), and its converted value with its HTML. */
  ready: ReadonlyMap<Article, Article>;
  /** The converted values of `ready`: what the pages' jobs hold once rendered. */
  converted: ReadonlySet<Article>;
  /** `next` hears of each batch of listed articles as it gets ready. */
  listen(next: (articles: Article[]) => void): void;
  /** Every article ready; rejects with the first conversion problem or every image problem. */
  done: Promise<void>;
  /** Ends the helpers now, and waits for the Markdown cache to keep what was converted. */
  close(): Promise<void>;
  /** Ends the helpers once their last drawing is done: the conversion is. */
  release(): Promise<void>;
  /** How many articles are converted in this run (the rest came from the Markdown cache or the last run). */
  converting: number;
  /** Draws with the site's drawers: in the helpers when many, else here (none: the site bundle failed). */
  draw?: DrawMany;
}

/** The inputs of a run, and what changed in them since the last good one. */
export interface Inputs extends Omit<
  State,
  'jobs' | 'routeReads' | 'pages' | 'generated' | 'articleImages' | 'featuresMade'
> {
  /** Every page may look different (code, template, site config, first run). */
  renderAll: boolean;
  styleChanged: boolean;
  listChanged: boolean;
  /** Fields changed of each article, by file. */
  fields: Map<string, Set<string>>;
  changedData: Set<string>;
  publicChanged: boolean;
  conversion: Conversion;
  /** The content hash of each article file, when they were all read (a first run). */
  articleKeys?: ReadonlyMap<string, string>;
}

/** One page as the last run made it. */
export interface RenderedPage {
  job: PageJob;
  /** May be a getter that reads it only when asked (a page from the page cache). */
  readonly html: string;
  /** `outputHash` of the HTML. */
  hash: string;
  /** The islands it shows: which scripts and styles it loads. */
  islands: string[];
  /** What it read while it rendered; undefined when it came from the page cache (build). */
  reads: PageReads | undefined;
  /** Its internal links and ids, taken out once: every run checks the links of every page. */
  links: PageLinks;
}

/** Everything one good run made; the next run (dev) starts from it. */
export interface State {
  shell: DocumentShell;
  server: ServerBundle;
  client: ClientBundle;
  dataSources: Map<string, DataFile>;
  settings: SiteSettings;
  /** The site's collections, their folders resolved (content/news alone when it declares none). */
  collections: readonly ResolvedCollection[];
  /** Every article file parsed, drafts included. */
  byFile: Map<string, Article>;
  /** The published articles, newest first, with their HTML. */
  articles: Article[];
  publicFiles: Set<string>;
  jobs: PageJob[];
  /** What the routes' entries() read when they were last expanded. */
  routeReads: PageReads;
  pages: Map<string, RenderedPage>;
  /** The images the articles show, processed. */
  articleImages: OutputFile[];
  generated: OutputFile[];
  /**
   * What each optional feature the site turns on made (the search index and the pages it was made
   * of), or how to make it when asked for (dev: a save never waits for the index).
   */
  featuresMade: FeaturesMade;
  /** The site's Markdown settings as the articles were converted with them (their stamp; '' without plugins). */
  markdownStamp: string;
}

/** How the article stage reads and converts, as the strategy sets it. */
export interface ArticleStageSetup {
  images: ImageStage;
  moduleCopies: SiteModuleCopies;
  /** Convert drafts and future posts too (dev: they come due while it runs). */
  convertHeldBack: boolean;
  /** Read an article's HTML from the Markdown cache only when a page shows it (build). */
  lazyHtml: boolean;
  /** A helper started before the run (build). */
  spare?: SpareHelper;
  /** The helper kept between runs for edits (dev): what a run that updates articles converts with. */
  edits?: EditConverter;
}

/** What the link check knows from before a run, and who keeps what the run's check sees. */
export interface LinkMemory extends Partial<Pick<LinkCheckContext, 'previousFiles' | 'checked'>> {
  /** What the last run's check did, kept in the process (dev). */
  memo?: LinkCheckMemo;
}

/**
 * What `build` and dev mode do differently, as one object the pipeline calls without asking which
 * it has; the stages and their order are the pipeline's. `build`: one short run whose pages mostly
 * come from the output folder. Dev: a process kept between saves, holding what the next run
 * reuses; it converts drafts and future posts too (they come due while it runs) and reads each
 * article's HTML with the article (it keeps articles for hours while another build may remove
 * cache entries).
 */
export interface Strategy<Written> {
  bundler: Bundler;
  /** How the articles are read and converted. */
  articles: ArticleStageSetup;
  /** Which pages are taken as they were made before rather than rendered (a page cache, or what they read). */
  pages(inputs: Inputs, previous: State | undefined): PageSource;
  openOutput(previous: State | undefined, publicFiles: ReadonlySet<string>): Promise<Output<Written>>;
  /** What the link check knows from before. */
  links(): LinkMemory;
  /**
   * The optional features: `earlier`, what a feature made last (the cache), taken when what it is
   * made of is as it was; `whenAsked`, made only when asked for (dev: a save never waits for it);
   * `heldBetweenRuns`, what a run made is kept in this process for the next (dev).
   */
  features: { earlier?(feature: Feature): Made | undefined; whenAsked: boolean; heldBetweenRuns: boolean };
}

export interface RunOptions {
  drafts?: boolean;
  future?: boolean;
  baseUrl?: string;
  now: Date;
  warn: (message: string) => void;
  /**
   * Hears the warnings of the site's own check (`defineSite({ check })`) once it has run, all of
   * them at once, in place of `warn`: dev prints only those its last check did not give. Without
   * it (`build`), each goes to `warn` as the check gives it.
   */
  checkWarnings?: (messages: readonly string[]) => void;
  onProgress?: (converted: number, total: number) => void;
  /** Where what the run makes outside the output (helper processes) is registered, for a stop by a signal to remove. */
  interrupts?: Interrupts;
  /** What one article may cost: its size, its nesting, its conversion's time and memory (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
}

/** Which pages are taken as they were made before, and who hears of each page made. */
export interface PageSource {
  /** The page as made before, when nothing it reads changed; undefined renders it. */
  earlier(
    job: PageJob,
  ): (Omit<RenderedPage, 'job' | 'links' | 'hash'> & { links?: PageLinks; hash?: string }) | undefined;
  /**
   * A page rendered again (something it read changed) that came out byte for byte as the page made
   * before (its hash the same): that page's links, so its HTML is not scanned again. Undefined
   * when nothing is known of it, or it differs.
   */
  sameAsBefore?(job: PageJob, hash: string): PageLinks | undefined;
  /**
   * earlier() answers from the parsed articles, not the converted ones (dev), so a page whose entry
   * holds no article can be taken as it was before the articles are converted.
   */
  answersBeforeConversion?: boolean;
  /** Hears of each page of the run, rendered (`fresh`) or not. */
  made?(page: RenderedPage, fresh: boolean): void;
  /** The run keeps no page's HTML once the output has it (build: nothing reads it again, and it is large). */
  dropsHtml?: boolean;
}
