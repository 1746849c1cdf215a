// A helper process that converts articles: the pool sends batches, it answers with the HTML, each
// article's images checked, processed (through the shared image cache) and shown as pictures.
import { openImageCache, type ImageCache } from '../images/image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS, useSharpVersion } from '../images/process.ts';
import { pathToFileURL } from 'node:url';
import { stopBundling } from '../mdx/mdx.ts';
import { convertArticle } from '../content/markdown.ts';
import type { MarkdownOptions } from '../content/markdown-options.ts';
import type { Drawer } from '../content/drawing.ts';
import {
  convertOne,
  type ArticleToConvert,
  type ConvertedArticle,
  type HelperImageSettings,
} from '../content/conversion.ts';

export interface MarkdownBatch {
  kind: 'markdown';
  batch: number;
  settings: HelperImageSettings;
  items: ArticleToConvert[];
}

export interface MarkdownBatchResult {
  batch: number;
  converted: ConvertedArticle[];
}

/** One generated file to draw with the site's drawer of that name. */
export interface DrawRequest {
  kind: 'draw';
  siteModule: string;
  root: string;
  drawer: string;
  input: unknown;
}

/** The file's bytes; none when the drawer failed (the build draws it again itself, to report it). */
export interface DrawResult {
  drawn?: Uint8Array;
}

export type HelperRequest = MarkdownBatch | DrawRequest;
export type HelperReply = MarkdownBatchResult | DrawResult;

// The helper lives only as long as the build: when the channel to it closes (the build ended,
// or was killed, even by SIGKILL), it exits.
process.on('disconnect', () => {
  stopBundling();
  process.exit(0);
});
if (!process.connected) process.exit(0);

let cache: ImageCache | undefined;
const siteOptions = new Map<string, Promise<MarkdownOptions | undefined>>();

/**
 * The site's Markdown options: its plugins from its compiled module, its reserved ids as sent;
 * one value per module and ids (the processor made for them is kept by that value).
 */
function markdownOptionsOf(
  file: string | undefined,
  reservedIds: readonly string[] | undefined,
): Promise<MarkdownOptions | undefined> {
  if (!file && !reservedIds?.length) return Promise.resolve(undefined);
  const key = JSON.stringify([file ?? null, reservedIds ?? []]);
  let options = siteOptions.get(key);
  if (!options) {
    const fromModule = file
      ? import(pathToFileURL(file).href).then(
          (module: { site?: { markdown?: MarkdownOptions } }) => module.site?.markdown,
        )
      : Promise.resolve(undefined);
    siteOptions.set(
      key,
      (options = fromModule.then((found) => (reservedIds?.length ? { ...found, reservedIds } : found))),
    );
  }
  return options;
}

/** The site's drawers, from its compiled module, imported once per module. */
const drawersOf = new Map<string, Promise<Record<string, Drawer> | undefined>>();
function drawers(file: string): Promise<Record<string, Drawer> | undefined> {
  let found = drawersOf.get(file);
  if (!found)
    drawersOf.set(
      file,
      (found = import(pathToFileURL(file).href).then(
        (module: { site?: { drawers?: Record<string, Drawer> } }) => module.site?.drawers,
      )),
    );
  return found;
}

async function draw({ siteModule, root, drawer, input }: DrawRequest): Promise<DrawResult> {
  try {
    const drawn = await (await drawers(siteModule))![drawer]!(input, { root });
    return drawn instanceof Uint8Array ? { drawn } : {};
  } catch {
    return {};
  }
}

process.on('message', async (message: HelperRequest) => {
  if (message.kind === 'draw') {
    const result = await draw(message);
    if (process.connected) process.send!(result);
    return;
  }
  const { batch, settings, items } = message;
  if (settings.imageProcessor) useSharpVersion(settings.imageProcessor);
  cache ??= openImageCache({
    cacheDir: settings.cacheDir,
    settings: DEFAULT_IMAGE_SETTINGS,
    assetsDir: settings.assetsDir,
  });
  const options = await markdownOptionsOf(settings.siteModule, settings.reservedIds);
  const converted: ConvertedArticle[] = [];
  for (const item of items) {
    // Said before each article, and flushed before its work starts: the pool gives each article
    // its own time budget from here (a helper's start-up is not the first article's), and names
    // this one if it runs past it (or out of memory).
    await new Promise<void>((resolve) =>
      process.connected ? process.send!({ progress: item.file }, () => resolve()) : resolve(),
    );
    converted.push(
      await convertOne(item.file, () =>
        convertArticle(
          item.markdown,
          { ...settings, file: item.file, bodyLine: item.bodyLine, cache: cache! },
          options,
          item.locale === undefined ? undefined : settings.words?.[item.locale],
        ),
      ),
    );
  }
  if (process.connected) process.send!({ batch, converted } satisfies MarkdownBatchResult);
});
