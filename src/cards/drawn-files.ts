// The files the site draws (share cards) in a run: listed by the site's files(), each taken from
// the cache while its path, key and drawing code are unchanged, else drawn (in the helper processes
// when there are many). Started when the run's output opens, awaited once the pages are made.
import { createHash } from 'node:crypto';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import { codeStampOf } from '../bundle/module-code.ts';
import type { Article } from '../content/article.ts';
import type { DrawMany } from '../content/drawing.ts';
import type { FeatureRun, FeatureRunInput } from '../features/contract.ts';
import type { Output, OutputFile } from '../output/output-file.ts';
import { siteLists, untrackedLists } from '../render/collections-view.ts';
import { emptyReads, trackReads, type PageReads } from '../render/dependencies.ts';
import type { GeneratedFile } from '../render/site-definition.ts';
import { generateFiles, type DrawnMemo } from './generated-files.ts';

/** What a run drew: its files, what the site's files() read to list them, and (dev) the files by entry. */
export interface Drawn {
  files: OutputFile[];
  reads: PageReads;
  memo?: DrawnMemo;
}

/**
 * The files the site draws (share images), each taken from the cache while its path, its key and
 * the site code are as before. Dev serves them as `build` writes them: pages point at them, and
 * keeps them in `memo` between rebuilds, so an edit reads none of the unchanged ones again.
 */
export function drawnFiles(
  inputs: Pick<FeatureRunInput, 'site' | 'articles' | 'project' | 'warn'>,
  how: {
    /** What the files were last time, and where to note what files() reads (kept between dev's runs). */
    memo?: { drawn: DrawnMemo; reads: PageReads };
    carries?: (file: string, hash: string) => boolean;
    draw?: DrawMany;
  },
): Promise<OutputFile[]> {
  const { site, project } = inputs;
  const { memo } = how;
  // With a memo (dev), what the site's files() read is noted, to call it again only when that changed.
  const { data, ...lists } = memo
    ? trackReads(inputs.articles, site.data, memo.reads)
    : { ...untrackedLists(inputs.articles), data: site.data };
  return generateFiles(
    site.server.module.site,
    {
      ...siteLists(site.collections, lists, data),
      data,
      baseUrl: site.baseUrl,
      root: project.root,
      warn: inputs.warn,
    },
    {
      cacheDir: project.cacheDir,
      salt: drawingCode(site.server),
      memo: memo?.drawn,
      carries: how.carries,
      draw: how.draw,
    },
  );
}

/**
 * The code that draws each file, for its cache key: its drawer's (or render's) module and what
 * that imports, so an edit elsewhere in the site draws nothing again; the whole site's code for a
 * function that cannot be told apart in the bundle.
 */
export function drawingCode(server: ServerBundle): (file: GeneratedFile) => string {
  // By the function's text: each file's render() is a closure of its own, all written in one place.
  const stamps = new Map<string, string>();
  const drawers = server.module.site.drawers ?? {};
  let whole: string | undefined;
  return (file) => {
    const fn = (file.draw ? drawers[file.draw.drawer] : file.render) as (...args: never[]) => unknown;
    const text = Function.prototype.toString.call(fn);
    let stamp = stamps.get(text);
    if (stamp === undefined)
      stamps.set(
        text,
        (stamp = codeStampOf(server, fn) ?? (whole ??= createHash('sha256').update(server.code).digest('hex'))),
      );
    return stamp;
  };
}

/** Draws the run's files: again, or as the last run drew them when nothing its files() read changed. */
async function drawRun(input: FeatureRunInput<Drawn>, output: Output<unknown>): Promise<Drawn> {
  const { earlier } = input;
  if (earlier && !input.changed(earlier.reads)) return earlier;
  const reads = emptyReads();
  // Held between runs (dev): the files by entry, so an edit reads none of the unchanged ones again;
  // a copy, as the run changes it and the last run's state is never changed.
  const memo = input.heldBetweenRuns ? new Map(earlier?.memo) : undefined;
  const how = {
    memo: memo && { drawn: memo, reads },
    carries: output.carries?.bind(output),
    draw: input.draw,
  };
  return { files: await drawnFiles(input, how), reads, ...(memo ? { memo } : {}) };
}

/**
 * The drawn files' part in a run: drawing starts once the output is open (it carries files over
 * from it) and runs while the pages are made; a run that fails meanwhile ends it before it returns.
 */
export function drawnFilesRun(input: FeatureRunInput<Drawn>): FeatureRun<Drawn> {
  let drawing: Promise<Drawn> | undefined;
  let drawn: Drawn | undefined;
  return {
    output(output) {
      drawing = drawRun(input, output);
      drawing.catch(() => {}); // reported where files() is awaited
      return {
        ...output,
        async abort() {
          await drawing?.catch(() => {});
          await output.abort();
        },
      };
    },
    async files() {
      drawn = await drawing!;
      return drawn.files;
    },
    made: () => ({ ...(drawn && { made: drawn }) }),
  };
}
