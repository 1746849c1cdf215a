import type { ArticleLimits } from '../content/limits.ts';
import type { Interrupts } from '../base/interrupt.ts';
// What a build is asked for and what it answers, apart from the code that builds (build.ts loads
// the full pipeline only when there is something to do, and the pipeline's modules need these types).

export interface SummaryRow {
  /** The URL path, or a route pattern with a count when pages are grouped. */
  route: string;
  htmlBytes: number;
  /** Gzip size of the scripts fetched before the visitor interacts (the first paint). */
  firstPaintJsGzip: number;
  /** Gzip size of every script the page may fetch, the islands' when they hydrate included. */
  jsGzip: number;
  cssGzip: number;
}

export interface PageSizes extends SummaryRow {
  /** The route-table pattern the page came from. */
  pattern: string;
}

export interface BuildOptions {
  root: string;
  /** The output folder, absolute or relative to root. */
  outDir: string;
  /** Overrides `baseUrl` of content/site.yaml. */
  baseUrl?: string;
  drafts?: boolean;
  /** Include articles dated after the build time (held back until their date otherwise). */
  future?: boolean;
  /** The build time; articles without a date get it. */
  now?: Date;
  warn?: (message: string) => void;
  /** Replace the contents of an output folder no build wrote (one a build wrote is always replaced). */
  emptyOutDir?: boolean;
  /** Told after each batch of articles converted: how many of those to convert are done (the CLI's progress line). */
  onProgress?: (converted: number, total: number) => void;
  /** How long to wait for another build into the same folder (default two minutes). */
  lockTimeoutMs?: number;
  /** Where the lock, the staging folder and the helper processes are registered, for a stop by a signal (the CLI's) to remove. */
  interrupts?: Interrupts;
  /** What one article may cost (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
}

export interface BuildResult {
  outDir: string;
  pages: PageSizes[];
  articles: number;
  /** Markdown conversions taken from the cache, and done. */
  markdown: { cached: number; converted: number };
  timings: Record<string, number>;
  durationMs: number;
  /** The output folder already held exactly this site; nothing was written. */
  unchanged: boolean;
}
