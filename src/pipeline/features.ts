// The optional features ssg knows, each behind the one contract (features/contract.ts): the
// pipeline turns on those whose option the site sets, and calls them without naming one.
import type {
  Feature,
  FeatureCache,
  FeatureDevSession,
  FeatureDevSite,
  FeatureFiles,
  FeatureFilesInput,
  FeatureMade,
  FeatureOn,
  FeatureRunInput,
  FeatureSite,
  Made,
} from '../features/contract.ts';
import type { Output, OutputFile } from '../output/output-file.ts';
import type { PathHeader } from '../render/site-files.ts';
import { inOrder } from '../base/in-order.ts';
import { drawnFilesFeature } from '../cards/feature.ts';
import { editorFeature } from '../editor/feature.ts';
import { searchFeature } from '../search/feature.ts';

/**
 * A feature as the list holds it: each is handed back only what it made itself (`earlier`, `kept`,
 * by its option), so its own type of what it makes may be forgotten here.
 */
const listed = <M extends Made>(feature: Feature<M>) => feature as unknown as Feature;

/**
 * Every optional feature. The pipeline calls them in this order; each wraps the run's output in
 * turn, so the last is outermost (its commit and abort run first).
 */
const FEATURES: readonly Feature[] = [listed(drawnFilesFeature), listed(searchFeature), listed(editorFeature)];

/** The features the site's definition turns on, their options checked. */
export function featuresOn(definition: object, site: FeatureSite): FeatureOn[] {
  const options = definition as Record<string, unknown>;
  return FEATURES.filter((feature) => options[feature.option] !== undefined).map((feature) =>
    feature.turnOn(options[feature.option], site),
  );
}

/** What each feature turned on made in a run, by its option. */
export type FeaturesMade = ReadonlyMap<string, FeatureMade>;

/** The header a feature gives some of the site's paths in place of the site's; at most one feature may give one. */
export function featureHeader(
  on: readonly FeatureOn[],
  ...args: Parameters<NonNullable<FeatureOn['header']>>
): PathHeader | undefined {
  const given = on.flatMap((one) => {
    const header = one.header?.(...args);
    return header ? [header] : [];
  });
  if (given.length > 1) throw new Error('Two features give a path header: _headers holds one, for now.');
  return given[0];
}

/**
 * The features' parts in one run: the run's output wrapped by each (so each hears of the pages
 * and writes its files before the commit), each told when every page is made, and what each made.
 */
export function startFeatures(
  on: readonly FeatureOn[],
  input: Omit<FeatureRunInput, 'earlier'>,
  earlier: (feature: Feature) => Made | undefined,
) {
  const runs = on.flatMap((one) =>
    one.run ? [{ one, run: one.run({ ...input, earlier: earlier(one.feature) }) }] : [],
  );
  return {
    output: <Written>(output: Output<Written>): Output<Written> =>
      runs.reduce((wrapped, { run }) => run.output?.(wrapped) ?? wrapped, output),
    pagesMade(pages: ReadonlyMap<string, { hash: string }>): void {
      for (const { run } of runs) run.pagesMade?.(pages);
    },
    /** The features' files of the site; when several fail, the first in the list's order is reported. */
    async files(): Promise<OutputFile[]> {
      return (await inOrder(runs.map(({ run }) => run.files?.() ?? Promise.resolve([])))).flat();
    },
    made: (): FeaturesMade => new Map(runs.map(({ one, run }) => [one.feature.option, run.made()])),
  };
}

/** The features' files beside the site files, and their folders' own headers. */
export function featureFiles(
  on: readonly FeatureOn[],
  input: FeatureFilesInput,
): { files: FeatureFiles['files']; folderHeaders: NonNullable<FeatureFiles['folderHeaders']>[] } {
  const made = on.flatMap((one) => (one.files ? [one.files(input)] : []));
  return {
    files: made.flatMap((one) => one.files),
    folderHeaders: made.flatMap((one) => (one.folderHeaders ? [one.folderHeaders] : [])),
  };
}

/** What `build` keeps of each feature's work in the cache folder: read before the run, kept after it. */
export function featureCaches(cacheDir: string) {
  const opened = new Map<string, FeatureCache | undefined>();
  return {
    read(feature: Feature): Made | undefined {
      const cache = feature.cache?.(cacheDir);
      opened.set(feature.option, cache);
      return cache?.read();
    },
    /** Never fails the build: what is not kept is made again by the next. */
    keep(made: FeaturesMade): void {
      for (const [option, cache] of opened) {
        try {
          cache?.keep(made.get(option)?.made);
        } catch {
          // Not kept.
        }
      }
    },
  };
}

/** Every feature's part in dev, for those whose files dev makes only when asked for. */
export const DEV_FEATURES = FEATURES.flatMap((feature) =>
  feature.dev ? [{ option: feature.option, ...feature.dev }] : [],
);

/**
 * Every feature's part in a dev session, each answering only while the last good build turned its
 * feature on (`isOn`). A session's failure to start or close is told, and the others go on.
 */
export function devSessions(site: FeatureDevSite, isOn: (option: string) => boolean, warn: (message: string) => void) {
  const all = FEATURES.flatMap((feature) =>
    feature.devSession ? [{ option: feature.option, session: feature.devSession(site) }] : [],
  );
  const on = () => all.filter(({ option }) => isOn(option)).map(({ session }) => session);
  const settle = async (results: Promise<unknown>[]) => {
    for (const result of await Promise.allSettled(results))
      if (result.status === 'rejected')
        warn(result.reason instanceof Error ? result.reason.message : String(result.reason));
  };
  return {
    owns: (sitePath: string) => on().some((session) => session.owns(sitePath)),
    headers: (sitePath: string): Record<string, string> =>
      Object.assign({}, ...on().map((session) => session.headers(sitePath))),
    async serve(...args: Parameters<FeatureDevSession['serve']>): Promise<boolean> {
      for (const session of on()) if (await session.serve(...args)) return true;
      return false;
    },
    start: () => settle(on().map((session) => session.start())),
    close: () => settle(all.map(({ session }) => session.close())),
  };
}
