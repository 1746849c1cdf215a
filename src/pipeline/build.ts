// `ssg build`: the output folder checked and locked, then either nothing to do (every input as
// for the last build into it, see unchanged.ts) or the full pipeline, loaded only then.
import path from 'node:path';
import { openCacheFolder } from '../cache/store.ts';
import { SsgError, SsgErrorList } from '../errors/errors.ts';
import { cleanLeftovers, lockOutput } from '../output/output-lock.ts';
import { checkOwnership, checkProjectRoot, markOutput, resolveOutDir } from '../output/output-target.ts';
import { projectAt, type Project } from '../project.ts';
import type { BuildOptions, BuildResult } from './build-result.ts';
import { inputStamp, manifestFileOf, unchangedReport } from './unchanged.ts';

/**
 * Builds the site into the output folder, once it is known to be a folder the build may write:
 * refused when it is the project, a source folder or a foreign folder; waited for while another
 * build writes there; cleared of what killed builds left beside it.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const root = path.resolve(options.root);
  checkProjectRoot(root, options.root);
  const project = projectAt(root);
  const outDir = resolveOutDir(project, options.outDir);
  const release = await lockOutput(outDir, {
    timeoutMs: options.lockTimeoutMs,
    interrupts: options.interrupts,
    onWait: (pid) =>
      options.warn?.(`another build (process ${pid}) is writing into ${outDir}; waiting for it to finish.`),
  });
  try {
    cleanLeftovers(outDir);
    checkOwnership(outDir, options.outDir, Boolean(options.emptyOutDir));
    openCacheFolder(project.cacheDir, path.relative(project.root, project.cacheDir));
    const stamp = inputStamp(project, outDir, options);
    const unchanged = await unchangedResult(project, outDir, stamp, options, started);
    if (unchanged) return unchanged;
    const { buildInto } = await import('./full-build.ts');
    const warned = new Set<string>();
    try {
      return await buildInto(
        project,
        outDir,
        { ...options, warn: (message) => (warned.add(message), options.warn?.(message)) },
        started,
        stamp,
      );
    } catch (error) {
      // An article's HTML, read from the Markdown cache only when a page showed it, was gone or
      // changed by then (another build pruned it): the same build once more, reading it whole,
      // without saying again what the first try said.
      if (!isCacheEntryChanged(error)) throw error;
      return await buildInto(
        project,
        outDir,
        { ...options, warn: (message) => warned.has(message) || options.warn?.(message) },
        started,
        stamp,
        { lazyHtml: false },
      );
    }
  } finally {
    release();
  }
}

function isCacheEntryChanged(error: unknown): boolean {
  // Bounded: a cause chain a few links long, or a list of problems.
  for (let at = error, depth = 0; at && depth < 8; at = (at as Error).cause, depth++) {
    if (at instanceof SsgError && at.code === 'CacheEntryChanged') return true;
    if (at instanceof SsgErrorList) return at.errors.some(isCacheEntryChanged);
  }
  return false;
}

/** The last build's result again, when nothing it was made from has changed and its output is untouched. */
async function unchangedResult(
  project: Project,
  outDir: string,
  stamp: string | undefined,
  options: BuildOptions,
  started: number,
): Promise<BuildResult | undefined> {
  const checkStarted = performance.now();
  const report =
    stamp &&
    (await unchangedReport(project, outDir, manifestFileOf(project, outDir), stamp, options.now ?? new Date()));
  if (!report) return undefined;
  // The folder is as the last build left it; its marker may not be (removed, or never written).
  markOutput(outDir);
  for (const message of report.warnings) options.warn?.(message);
  return {
    outDir,
    pages: report.pages,
    articles: report.articles,
    markdown: { cached: report.articles, converted: 0 },
    timings: { 'inputs unchanged': performance.now() - checkStarted },
    durationMs: performance.now() - started,
    unchanged: true,
  };
}
