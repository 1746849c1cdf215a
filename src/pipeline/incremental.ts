// Dev mode's strategy for the one pipeline (pipeline.ts), kept alive between saves and run again
// on what changed: esbuild contexts rebuilt instead of one-shot bundles, pages kept while nothing
// they read changed, files written in place. Every check is the same, on the whole site, on every run.
import { translationsOf } from '../render/i18n.ts';
import path from 'node:path';
import type { Article } from '../content/article.ts';
import { dependsOnArticles, listChanges, type ArticleChange } from '../render/dependencies.ts';
import { swapStyleSheet } from '../render/head.ts';
import { createLinkCheckMemo } from '../render/links.ts';
import { projectAt, type Project } from '../project.ts';
import type { PageJob } from '../render/routes.ts';
import { createInPlaceOutput, inPlaceOutput } from '../output/in-place-output.ts';
import { DEV_FEATURES } from './features.ts';
import type { Made } from '../features/contract.ts';
import { createImageStage } from './images.ts';
import { contextBundler } from './bundlers.ts';
import { classifyAll } from './changes.ts';
import { articleConverter, createSiteModuleCopies, siteMarkdownOf } from './site-markdown.ts';
import {
  runPipeline,
  type ArticleStageSetup,
  type ChangeKind,
  type Inputs,
  type PageSource,
  type State,
  type Strategy,
} from './pipeline.ts';
import type { ArticleLimits } from '../content/limits.ts';
import { createEditConverter, type EditConverter } from '../pool/edit-converter.ts';
export { classify } from './changes.ts';
export type { ChangeKind } from './pipeline-types.ts';

export interface UpdateResult {
  /** URL paths of the pages written (their HTML changed). */
  pages: string[];
  /** URL paths of pages removed. */
  removed: string[];
  /** Set when only the style sheet changed: pages may swap it in place. */
  styleSwap?: { from?: string; to?: string };
  /** Every page should reload (code, template, public files, site config). */
  reloadAll: boolean;
  durationMs: number;
}

export interface IncrementalOptions {
  root: string;
  outDir: string;
  drafts?: boolean;
  /** Include articles dated after now (held back until their date otherwise). */
  future?: boolean;
  baseUrl?: string;
  warn: (message: string) => void;
  now?: () => Date;
  /** What one article may cost (DEFAULT_LIMITS when not given). */
  limits?: ArticleLimits;
}

/** A page's entry with each article named by its file: a page handed other articles (a tag page's list) renders again. */
const entryShape = (job: PageJob) =>
  JSON.stringify([job.entry, ...translationsOf(job)], (_, value) =>
    value && typeof value === 'object' && typeof (value as Article).slug === 'string' && 'markdown' in value
      ? `article:${(value as Article).file}`
      : value,
  );

/** Whether two jobs of one page were handed the same entry (the same job, when the routes were not expanded again). */
const sameEntry = (before: PageJob, after: PageJob) => before === after || entryShape(before) === entryShape(after);

/** The pages kept from the last run: those whose entry and everything they read are as they were (pointing at a new style sheet). */
function keptPages(previous: State | undefined, inputs: Inputs): PageSource {
  if (!previous || inputs.renderAll) return { earlier: () => undefined };
  // The tag groups and list pages that pages read, compared before and now (worked out when asked).
  const change: ArticleChange = {
    listChanged: inputs.listChanged,
    fields: inputs.fields,
    lists: listChanges(previous.articles, inputs.articles),
  };
  const from = previous.client.styleUrl;
  const to = inputs.client.styleUrl;
  const inline = { before: previous.client.inlineStyle, after: inputs.client.inlineStyle };
  const swap = inputs.styleChanged && from && to && from !== to;
  return {
    answersBeforeConversion: true,
    earlier(job) {
      const page = previous.pages.get(job.outputPath);
      if (!page?.reads || !sameEntry(page.job, job)) return undefined;
      if (inputs.changedData.size > 0 && [...page.reads.dataKeys].some((key) => inputs.changedData.has(key)))
        return undefined;
      if (dependsOnArticles(page.reads, change)) return undefined;
      return swap ? { ...page, html: swapStyleSheet(page.html, from, to, inline), hash: undefined } : page;
    },
  };
}

/** What a reload needs to know of a run. */
function describeUpdate(
  previous: State | undefined,
  state: State,
  changed: Set<string>,
  inputs: Inputs,
  kinds: Map<ChangeKind, string[]>,
) {
  const pages = state.jobs.filter((job) => changed.has(job.outputPath)).map((job) => job.path);
  const removed = previous
    ? [...previous.pages.values()].filter((page) => !state.pages.has(page.job.outputPath)).map((page) => page.job.path)
    : [];
  // A code change alongside is no change when the code compiled as before (renderAll unset).
  const onlyStyle =
    inputs.styleChanged && !inputs.renderAll && [...kinds.keys()].every((kind) => kind === 'style' || kind === 'code');
  const styleSwap = onlyStyle ? { from: previous?.client.styleUrl, to: state.client.styleUrl } : undefined;
  // A run that wrote nothing (the same save seen twice) changes nothing a page shows.
  return {
    pages,
    removed,
    styleSwap,
    reloadAll: !previous || inputs.publicChanged || (inputs.renderAll && changed.size > 0),
  };
}

/**
 * A feature's files in `outDir` (the search index), made for a run's state when asked for, one at
 * a time (the search's Pagefind is one process), from the files written last (kept when made of
 * the same pages). A state without the feature leaves none; one whose making failed leaves none either (a
 * search then says it is not available, rather than finding what the pages said before) and is
 * tried again when asked next.
 */
function madeWhenAsked(outDir: string, publicDir: string, option: string, stopWork: () => Promise<unknown>) {
  // The feature's files only, written as the run's are: those that changed, and none left of the last.
  const folder = createInPlaceOutput(outDir, publicDir);
  let written: Made | undefined;
  let making: { of: State; done: Promise<void> } | undefined;
  /** Set by `stop`: nothing is started after it, not even what was queued before. */
  let stopped = false;
  const replace = (made: Made | undefined) => {
    folder.sync(new Map(made?.files.map((file) => [file.path, file.contents])), new Set());
    written = made;
  };
  return {
    make(state: State | undefined): Promise<void> {
      if (!state || stopped) return Promise.resolve();
      if (making?.of !== state) {
        const done = (making?.done ?? Promise.resolve())
          .catch(() => {})
          .then(async () => {
            if (stopped) return;
            const made = await state.featuresMade
              .get(option)
              ?.make?.(written)
              .catch((error: unknown) => {
                replace(undefined);
                if (making?.of === state) making = undefined;
                throw error;
              });
            if (made !== written) replace(made);
          });
        making = { of: state, done };
      }
      return making.done;
    },
    /** Stops what is being made (its request then fails) and waits for it. */
    async stop(): Promise<void> {
      stopped = true;
      if (!making) return;
      await stopWork();
      await making.done.catch(() => {});
    },
  };
}

/** Each feature's files made when asked for, in `outDir`: a request under `askedUnder` waits for them. */
function featuresWhenAsked(outDir: string, publicDir: string) {
  return DEV_FEATURES.map((dev) => ({
    askedUnder: dev.askedUnder,
    ...madeWhenAsked(outDir, publicDir, dev.option, dev.stop),
  }));
}

/**
 * Prints what the site's own check warns of when it is new. The check runs on every data or code
 * change and says the same until what it checks changes: a warning is printed when it is new or
 * different, and again only after a check that did not give it (it went away, and came back).
 */
function onlyNewWarnings(warn: (message: string) => void): (messages: readonly string[]) => void {
  let said = new Set<string>();
  return (messages) => {
    for (const message of new Set(messages)) if (!said.has(message)) warn(message);
    said = new Set(messages);
  };
}

/**
 * Dev's side of the pipeline: bundles by contexts kept alive, pages taken from the last run, the
 * output written in place, and memos kept between runs; drafts and future posts converted too
 * (they come due while dev runs), each with its HTML; the features' files made when asked for.
 */
async function devStrategy(
  project: Project,
  outDir: string,
  articles: Pick<ArticleStageSetup, 'images' | 'moduleCopies'> & { edits: EditConverter },
): Promise<Strategy<Set<string>>> {
  const links = { memo: createLinkCheckMemo() };
  const openInPlace = inPlaceOutput(outDir, project.publicDir);
  return {
    bundler: await contextBundler(project, outDir),
    articles: { ...articles, convertHeldBack: true, lazyHtml: false },
    pages: (inputs, previous) => keptPages(previous, inputs),
    openOutput: (previous, publicFiles) => openInPlace(!previous, publicFiles),
    links: () => links,
    features: { whenAsked: true, heldBetweenRuns: true },
  };
}

/**
 * The pipeline kept in memory: given the files that changed, it redoes only what they affect (an
 * article edit renders that article and the pages that read what changed in it, not the site).
 * Every run checks the whole site as `build` does, and writes nothing unless all is well.
 */
export async function createIncrementalBuild(options: IncrementalOptions) {
  const project = projectAt(path.resolve(options.root));
  const outDir = path.resolve(project.root, options.outDir);
  const now = options.now ?? (() => new Date());
  const images = createImageStage(project);
  const edits = createEditConverter({ cacheDir: project.cacheDir, ...(options.limits && { limits: options.limits }) });
  const moduleCopies = createSiteModuleCopies(project.cacheDir);
  const strategy = await devStrategy(project, outDir, { images, edits, moduleCopies });

  let state: State | undefined;
  const checkWarnings = onlyNewWarnings(options.warn);
  /** When the last good run started (wall clock): cache entries written since are spared. */
  let lastGood = Date.now();
  let asked = featuresWhenAsked(outDir, project.publicDir);

  /** Runs the pipeline from the last good state (or from nothing); all or nothing. */
  async function run(changed: Iterable<string>): Promise<UpdateResult> {
    const started = performance.now();
    const startedAt = Date.now();
    const previous = state;
    const kinds = classifyAll(project, changed, previous, images);
    const result = await runPipeline(project, strategy, previous, kinds, { ...options, now: now(), checkWarnings });
    if (!previous) asked = featuresWhenAsked(outDir, project.publicDir); // the folder was emptied
    state = result.state;
    lastGood = startedAt;
    return {
      ...describeUpdate(previous, result.state, result.written, result.inputs, kinds),
      durationMs: performance.now() - started,
    };
  }

  return {
    project,
    outDir,
    /** Builds everything into the output folder, replacing what was there. */
    initial: () => {
      state = undefined;
      return run([]);
    },
    /** Applies a set of changed files (relative to the root or absolute). All or nothing. */
    update: (changed: Iterable<string>) => run(changed),
    /**
     * Removes the processed images the site no longer shows from the cache, as `build` does; the
     * caller runs it once a rebuild was announced, so that it never delays a reload.
     */
    pruneCaches(): void {
      if (state) images.pruneUnused(state.articles, state.settings.images, lastGood);
    },
    /**
     * Starts the helper that converts edited articles, with the settings of the last good run, and
     * warms it (a sample article converted a few times): the first saves then cost no process start
     * and no compiling. Settles when it is warm.
     */
    async warmEdits(): Promise<void> {
      if (!state) return;
      const markdown = siteMarkdownOf(moduleCopies, state.server, { drawing: false });
      await edits.warm(articleConverter(images, { ...markdown, stamp: state.markdownStamp }));
    },
    /**
     * Makes what the features serving `pathname` make when asked for (the search index, for a
     * request under `/pagefind/`) of the last good run, and puts their files in the folder;
     * settles at once when they are there already, or when no feature serves the path.
     */
    askedFor: async (pathname: string): Promise<void> => {
      for (const feature of asked) if (pathname.startsWith(feature.askedUnder)) await feature.make(state);
    },
    dispose: async () => {
      for (const feature of asked) await feature.stop();
      await edits.close();
      await strategy.bundler.dispose();
      moduleCopies.dispose();
    },
    hasBuilt: () => state !== undefined,
    /** Whether the last good build turned on the feature of this option. */
    featureOn: (option: string) => state?.settings.features.some((one) => one.feature.option === option) ?? false,
  };
}

export type IncrementalBuild = Awaited<ReturnType<typeof createIncrementalBuild>>;
